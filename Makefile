# stackplay: the README's commands. `make run` and `make test` set the machine up first.
SWIFT ?= swift
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
BIN := .build/debug/stackplay

.PHONY: deps build run test bench format clean

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
	$(SWIFT) run -c release stackplay-bench

format:
	$(SWIFT) format --in-place --recursive Sources Tests Package.swift

clean:
	rm -rf .build
