# stackplay: the README's commands. `make run` and `make test` set the machine up first.
SWIFT ?= swift
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
BIN := .build/debug/stackplay

.PHONY: deps build run test bench report format clean lua

# Lua 5.4 and pkg-config from Debian, only when pkg-config cannot find lua5.4.
deps:
	@pkg-config --exists lua5.4 2>/dev/null || { \
	  echo "installing liblua5.4-dev and pkg-config"; \
	  $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq liblua5.4-dev pkg-config >/dev/null; }

build: deps
	$(SWIFT) build

# Every scenario under scripts/.
run: build
	$(BIN) scripts

test: build
	$(SWIFT) test
	$(BIN) scripts

bench: deps
	$(SWIFT) build -c release --product stackplay
	$(SWIFT) build -c release --product stackplay-bench
	.build/release/stackplay-bench

# The scenarios' HTML report (a filmstrip of every test), and a screenshot of it taken by headless
# Chromium, installed from Debian when missing: artifacts/report.html, artifacts/report.png.
report: build
	@command -v chromium >/dev/null 2>&1 || { \
	  echo "installing chromium"; \
	  $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq chromium >/dev/null; }
	rm -rf artifacts
	$(BIN) --artifacts artifacts scripts
	chromium --headless --no-sandbox --disable-gpu --screenshot=artifacts/report.png \
	  --window-size=1200,1600 file://$(CURDIR)/artifacts/report.html 2>/dev/null
	@echo "wrote artifacts/report.html and artifacts/report.png"

# stackplay's own Lua (Sources/Bindings/Lua/*.lua) into Sources/Bindings/EmbeddedLua.swift.
lua:
	tools/embed-lua

format:
	$(SWIFT) format --in-place --recursive Sources Tests Package.swift

clean:
	rm -rf .build
