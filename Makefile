# stackplay: the README's commands. `make run` and `make test` set the machine up first.
SWIFT ?= swift
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
BIN := .build/debug/stackplay
# The optimised, statically linked binary users run (make release, make run, make install, make bench).
RELEASE_BIN := .build/static/release/stackplay

.PHONY: deps build release run test bench report format clean lua viewer lua-module install install-lua-module test-lua-module lua-tools test-libraries \
	dependent-package test-browser browser-tools check lint-swift lint-lua drift layers asan sanitize plain invariants \
	test-swift test-scripts test-mutate test-browser-if-possible ci-steps

# Lua 5.4 and pkg-config from Debian, only when pkg-config cannot find lua5.4; CivetWeb (the studio's
# HTTP and WebSocket server, docs/studio.md) when its header is missing (Debian ships no .pc for it).
deps:
	@pkg-config --exists lua5.4 2>/dev/null || { \
	  echo "installing liblua5.4-dev and pkg-config"; \
	  $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq liblua5.4-dev pkg-config >/dev/null; }
	@[ -f /usr/include/civetweb.h ] || { \
	  echo "installing libcivetweb-dev"; \
	  $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq libcivetweb-dev >/dev/null; }
	@python3 -c 'import jsonschema' 2>/dev/null || { \
	  echo "installing python3-jsonschema (stackplay mutate's --json is validated with it)"; \
	  { $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq python3-jsonschema >/dev/null; } || \
	  python3 -m pip install -q jsonschema 2>/dev/null || $(SUDO) python3 -m pip install -q --break-system-packages jsonschema; }

build: deps
	$(SWIFT) build

# Every scenario under scripts/, as written and mirrored (`name [mirrored]`), then the explorations
# in scripts/explore/ for a short fixed budget (seed 0, 50 runs of 100 steps each; a failure is
# written to .build/explore-out/), with the optimised binary users run (make release): the debug
# build takes 3.5 times as long over scripts/ and 9 times for explore.
run: release
	$(RELEASE_BIN) --mirror scripts
	$(RELEASE_BIN) explore scripts/explore --seed 0 --runs 50 --steps 100 --out .build/explore-out

# `make test` is these steps in this order, and `make check` its own; .ci/run runs and times each
# (`make ci-steps` lists them).
TEST_STEPS := test-swift test-scripts test-mutate test-lua-module test-differential test-libraries \
	dependent-package test-browser-if-possible
CHECK_STEPS := lint-swift lint-lua drift layers sanitize plain invariants
# (A step after `build` in the same run skips building again: STEP_BUILD is empty there.)
STEP_BUILD ?= build
test: build
	@for step in $(TEST_STEPS); do $(MAKE) --no-print-directory $$step STEP_BUILD= || exit 1; done

ci-steps:
	@echo build $(TEST_STEPS) $(CHECK_STEPS)

test-swift: $(STEP_BUILD)
	$(SWIFT) test

test-scripts: $(STEP_BUILD)
	$(BIN) --mirror scripts

# The documented equivalent mutants are Ignored by default (docs/mutate.md): no exclusion list.
test-mutate: $(STEP_BUILD)
	$(BIN) mutate scripts --min-score 100

test-browser-if-possible:
	@if command -v chromium >/dev/null 2>&1 || { command -v apt-get >/dev/null 2>&1 && \
	    { [ "$$(id -u)" = 0 ] || sudo -n true 2>/dev/null; } && \
	    apt-cache policy chromium 2>/dev/null | grep -q 'Candidate: [0-9]'; }; then \
	  $(MAKE) --no-print-directory test-browser STEP_BUILD=$(STEP_BUILD); \
	else \
	  echo "SKIPPED (not passed): make test-browser, the trace viewer in Chromium: no chromium here and apt-get cannot install it"; \
	fi

# The sandbox against stock Lua 5.4: each snippet of Tests/Differential/cases/ under lua5.4 (TZ=UTC)
# and under stackplay, outputs compared but for the differences Tests/Differential/allowed.txt lists.
.PHONY: test-differential
test-differential: $(STEP_BUILD) lua-tools
	python3 Tests/Differential/run.py $(BIN)

# Pure-Lua libraries nobody here wrote, from Debian's packages (installed when missing, never copied
# into the repository): Penlight (`require "pl"`), luassert with say, inspect, dkjson and Moses. They
# are copied, links followed, from where Debian puts them into .build/test-libraries beside the
# scripts of Tests/Libraries/ (stackplay's `require` looks only inside the scripts' folder); each
# script runs under lua5.4 and under stackplay there, outputs compared as test-differential does.
LIBRARY_PACKAGES := lua-penlight lua-luassert lua-say lua-inspect lua-dkjson lua-moses
LIBRARY_MODULES := pl luassert say inspect.lua dkjson.lua moses.lua
LIBRARIES := .build/test-libraries
.PHONY: test-libraries
test-libraries: $(STEP_BUILD) lua-tools
	@for p in $(LIBRARY_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	[ -z "$$missing" ] || { \
	  echo "installing$$missing"; \
	  $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing >/dev/null; }
	rm -rf $(LIBRARIES) && mkdir -p $(LIBRARIES)
	@for m in $(LIBRARY_MODULES); do \
	  found=; for v in 5.4 5.3 5.2 5.1; do \
	    if [ -e /usr/share/lua/$$v/$$m ]; then cp -RL /usr/share/lua/$$v/$$m $(LIBRARIES)/ && found=1 && break; fi; \
	  done; [ -n "$$found" ] || { echo "test-libraries: $$m is not under /usr/share/lua"; exit 1; }; \
	done
	cp Tests/Libraries/uses_*.lua $(LIBRARIES)/
	python3 Tests/Differential/run.py $(BIN) --cases $(LIBRARIES) --allowed Tests/Libraries/allowed.txt \
	  $(notdir $(wildcard Tests/Libraries/uses_*.lua))

# Tests/DependentPackage depends on StackModel 1.0.0 through a git URL, as another project would (SwiftPM
# refuses products with unsafe flags there): the working tree's files, tracked or new, are committed
# into a fresh repository at .build/dependent-package/stackplay, tagged 1.0.0, and the package built
# and run.
DEPENDENT := .build/dependent-package
dependent-package:
	rm -rf $(DEPENDENT) Tests/DependentPackage/Package.resolved
	mkdir -p $(DEPENDENT)/stackplay
	git ls-files -z --cached --others --exclude-standard | \
	  tar --null -T - --ignore-failed-read -cf - 2>/dev/null | tar -xf - -C $(DEPENDENT)/stackplay
	cd $(DEPENDENT)/stackplay && git init -q -b main && git add -A && \
	  git -c user.name=stackplay -c user.email=stackplay@localhost commit -q -m snapshot && git tag 1.0.0
	$(SWIFT) build --package-path Tests/DependentPackage --scratch-path $(DEPENDENT)/build --disable-dependency-cache
	$(DEPENDENT)/build/debug/StackModelUser
	rm -f Tests/DependentPackage/Package.resolved

# A release build of the executable linked statically, the Swift runtime, libc and Lua with it
# (-static-executable; SwiftPM refuses it in Package.swift), in its own scratch folder. Nothing is
# loaded or relocated at run time: no dynamic loader, no symbol lookups, no relative relocations
# (the PIE linked with -static-stdlib had 29,000 and loaded five libraries), and `stackplay
# --version` takes 0.8 ms of CPU instead of 1.7 ms (issue 21's start-up row).
# A concrete generic type's metadata is reached through its own accessor, not by demangling its
# name at its first use (-disable-concrete-type-metadata-mangled-name-accessors): each process
# pays that first use, and a worker's first file demangled about 100 types (1.7 million
# instructions of its warm-up, 0.7 million of the parent's), a fixed cost of every run and of
# each worker that --jobs 2 pays on both cores.
STATIC := -c release -Xswiftc -static-executable -Xswiftc -Xclang-linker -Xswiftc -fuse-ld=lld \
	-Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors \
	--scratch-path .build/static
# The studio (docs/studio.md) links Debian's shared CivetWeb, so it cannot be static: it is its own
# release build with the Swift runtime linked in (-static-stdlib, so an installed copy needs no
# toolchain), copied beside the static stackplay, whose `stackplay studio` starts it from there.
STUDIO := -c release --product stackplay-studio -Xswiftc -static-stdlib
release: deps
	$(SWIFT) build $(STATIC) --product stackplay
	$(SWIFT) build $(STUDIO)
	cp .build/release/stackplay-studio $(dir $(RELEASE_BIN))stackplay-studio
	@echo "built $(RELEASE_BIN) and $(dir $(RELEASE_BIN))stackplay-studio"

# Issue 12's table (today / target / now), after the measures: the bench and the stackplay it
# runs beside it are both static release builds. lua5.4 is the baseline of the start-up and
# sandbox rows (lua-tools installs it where it is missing).
# The studio's rows time its own program, dynamically linked (docs/studio.md): a release build in .build/release.
bench: deps lua-tools
	$(SWIFT) build $(STATIC) --product stackplay
	$(SWIFT) build $(STATIC) --product stackplay-bench
	$(SWIFT) build $(STUDIO)
	.build/static/release/stackplay-bench

# The scenarios' HTML report (the trace viewer), and a screenshot of it taken by headless
# Chromium, installed from Debian when missing: artifacts/report.html, artifacts/report.png. The page
# draws after it inflates its traces: --virtual-time-budget lets that finish before the shot.
report: build
	@command -v chromium >/dev/null 2>&1 || { \
	  echo "installing chromium"; \
	  $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq chromium >/dev/null; }
	rm -rf artifacts
	$(BIN) --artifacts artifacts scripts
	chromium --headless --no-sandbox --disable-gpu --virtual-time-budget=3000 --screenshot=artifacts/report.png \
	  --window-size=1200,1600 file://$(CURDIR)/artifacts/report.html 2>/dev/null
	@echo "wrote artifacts/report.html and artifacts/report.png"

# The trace viewer in a real browser: headless Chromium and chromedriver from Debian, Selenium from
# PyPI (each installed only when missing), driven by Tests/Browser/viewer_test.py: open the report,
# filter, select the failed test, step with the keyboard, read the state panel; it leaves a
# screenshot in artifacts/viewer.png. Tests/Browser/viewer_failures_test.py opens each kind of
# failure (a likely cause, a golden trace, a Lua error, `stackplay view` of a --json report) and
# leaves artifacts/viewer-*.png (docs/traces-and-viewer.md shows them, from docs/images/).
browser-tools:
	@{ command -v chromium && command -v chromedriver; } >/dev/null 2>&1 || { \
	  echo "installing chromium chromium-driver"; \
	  $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq chromium chromium-driver >/dev/null; }
	@python3 -c 'import selenium' 2>/dev/null || { \
	  echo "installing selenium"; \
	  python3 -m pip install -q selenium 2>/dev/null || $(SUDO) python3 -m pip install -q --break-system-packages selenium; }

# Tests/Browser/studio_test.py: `stackplay studio` on a scratch folder, through its page (runs, watch,
# the live screen's drags, Record and Save, the token and Host checks); its screenshots go to
# artifacts/, and the README's picture to docs/studio.png. Tests/Browser/mutation_page_test.py:
# `stackplay mutate --html` (the survivor's suggested test, the link into the killing test's trace).
test-browser: $(STEP_BUILD) browser-tools
	mkdir -p artifacts
	python3 Tests/Browser/viewer_test.py $(BIN) artifacts/viewer.png
	python3 Tests/Browser/viewer_failures_test.py $(BIN) artifacts
	python3 Tests/Browser/studio_test.py $(BIN) artifacts docs/studio.png
	python3 Tests/Browser/mutation_page_test.py $(BIN) artifacts/mutation.png

# The Lua C module, `require "stackplay"` from lua5.4 or busted: .build/lua/stackplay.so. A
# release build of the stackplay-lua product with the Swift runtime linked in (-static-stdlib, for
# this product only, in its own scratch folder), so that it loads without the Swift toolchain.
LUA_MODULE := .build/lua/stackplay.so
# LUA_MODULE_BUILD=debug takes `make build`'s own libstackplay-lua.so instead (no build of its own:
# it links the toolchain's Swift runtime, which its RUNPATH names), as `make test` does.
LUA_MODULE_BUILD ?= release
ifeq ($(LUA_MODULE_BUILD),debug)
LUA_MODULE_FLAGS := --product stackplay-lua
LUA_MODULE_BUILT := .build/debug/libstackplay-lua.so
else
LUA_MODULE_FLAGS := -c release --product stackplay-lua -Xswiftc -static-stdlib --scratch-path .build/lua-module
LUA_MODULE_BUILT := .build/lua-module/release/libstackplay-lua.so
endif
# (luarocks runs this with CC=gcc and its CFLAGS: SwiftPM would compile the C targets with them.)
lua-module: deps
	env -u CC -u CFLAGS -u LDFLAGS -u LIBFLAG $(SWIFT) build $(LUA_MODULE_FLAGS)
	mkdir -p $(dir $(LUA_MODULE))
	cp $(LUA_MODULE_BUILT) $(LUA_MODULE)
	@echo "built $(LUA_MODULE): package.cpath = \"$(CURDIR)/.build/lua/?.so;\" .. package.cpath"

# `make install` (PREFIX, DESTDIR, BINDIR as usual): the optimised stackplay and its studio in BINDIR, and where
# Debian's lua5.4 looks, the module in LUA_LIBDIR, and beside the Lua files the LuaLS definitions
# and the luacheck standards (LUA_SHAREDIR/stackplay/). luarocks passes its own dirs.
PREFIX ?= /usr/local
LUA_LIBDIR ?= $(PREFIX)/lib/lua/5.4
LUA_SHAREDIR ?= $(PREFIX)/share/lua/5.4
INSTALL_SUDO := $(shell [ -w "$(DESTDIR)$(PREFIX)" ] || [ "$$(id -u)" = 0 ] || echo sudo)
BINDIR ?= $(PREFIX)/bin
install: release install-lua-module
	$(INSTALL_SUDO) install -d $(DESTDIR)$(BINDIR)
	$(INSTALL_SUDO) install -m 755 $(RELEASE_BIN) $(DESTDIR)$(BINDIR)/stackplay
	$(INSTALL_SUDO) install -m 755 $(dir $(RELEASE_BIN))stackplay-studio $(DESTDIR)$(BINDIR)/stackplay-studio

# The Lua module alone (luarocks' install target: a rock installs no stackplay command).
install-lua-module: lua-module
	$(INSTALL_SUDO) install -d $(DESTDIR)$(LUA_LIBDIR) $(DESTDIR)$(LUA_SHAREDIR)/stackplay/types
	$(INSTALL_SUDO) install -m 755 -s $(LUA_MODULE) $(DESTDIR)$(LUA_LIBDIR)/stackplay.so
	$(INSTALL_SUDO) install -m 644 types/stackplay.lua $(DESTDIR)$(LUA_SHAREDIR)/stackplay/types/stackplay.lua
	$(INSTALL_SUDO) install -m 644 lint/luacheckrc.lua $(DESTDIR)$(LUA_SHAREDIR)/stackplay/luacheckrc.lua

# lua5.4, busted, luarocks and luacheck from Debian, only when one is missing.
lua-tools:
	@for tool in lua5.4 busted luarocks luacheck; do command -v $$tool >/dev/null 2>&1 || missing=1; done; \
	[ -z "$$missing" ] || { \
	  echo "installing lua5.4 lua-busted luarocks lua-check"; \
	  $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq lua5.4 lua-busted luarocks lua-check >/dev/null; }

# The module as its users meet it: a lua5.4 one-liner, the busted specs, `luarocks make` into a
# temporary tree (then loaded from there), and luacheck over scripts/ and spec/. Of `make build`'s
# debug build (TEST_LUA_MODULE_BUILD=debug, and luarocks' make with it): CI needs no release build
# of the module; `make test-lua-module TEST_LUA_MODULE_BUILD=release` tests the one users install.
TEST_LUA_MODULE_BUILD ?= debug
LUA_ONE_LINER := package.cpath = ".build/lua/?.so;" .. package.cpath; \
  local stackplay = require "stackplay"; \
  local screen = stackplay.screen { layout_direction = "rtl" }; \
  local stack = screen:notification_stack { items = { "messages", "calendar", "mail" }, dismissible = true }; \
  stack:tap(); screen:settle(); stack:drag("calendar", { x = 111 }); screen:settle(); \
  local ids = table.concat(stack:ids(), " "); print("lua5.4: " .. ids); assert(ids == "messages mail", ids)
test-lua-module: lua-tools
	$(MAKE) --no-print-directory lua-module LUA_MODULE_BUILD=$(TEST_LUA_MODULE_BUILD)
	lua5.4 -e '$(LUA_ONE_LINER)'
	busted --lua=lua5.4 --cpath=".build/lua/?.so" spec
	tree=$$(mktemp -d) && trap 'rm -rf "$$tree"' EXIT && \
	  LUA_MODULE_BUILD=$(TEST_LUA_MODULE_BUILD) luarocks --lua-version=5.4 make --tree "$$tree" stackplay-dev-1.rockspec && \
	  lua5.4 -e "package.cpath = '$$tree/lib/lua/5.4/?.so;' .. package.cpath; \
	    print('luarocks: stackplay ' .. require('stackplay').version .. ' from ' .. package.searchpath('stackplay', package.cpath))" && \
	  test -f "$$tree/share/lua/5.4/stackplay/types/stackplay.lua"
	luacheck --no-color scripts spec lint

# stackplay's own Lua (Sources/Bindings/Lua/*.lua) into Sources/Bindings/EmbeddedLua.swift.
lua: lua-tools
	tools/embed-lua

# The trace viewer's CSS and JavaScript (Sources/Traces/Viewer/) into Sources/Traces/EmbeddedViewer.swift.
viewer:
	tools/embed-viewer

# The Swift sources swift-format reads: every tracked one but the generated files (tools/embed-*).
SWIFT_SOURCES = $(shell git ls-files '*.swift' | grep -v -e 'Sources/Bindings/EmbeddedLua.swift' -e 'Sources/Traces/EmbeddedViewer.swift' -e 'Sources/Studio/EmbeddedPage.swift')

format:
	@$(SWIFT) format --in-place --parallel $(SWIFT_SOURCES)

# The code's own hygiene, as CI runs it (.ci/run): swift-format's lint with zero findings, luacheck
# with zero warnings, the generated files current, the layers of the C pointing one way, the Swift
# suite under AddressSanitizer and UndefinedBehaviorSanitizer, the plain-path pass, and the arena's
# invariant checks.
check:
	@for step in $(CHECK_STEPS); do $(MAKE) --no-print-directory $$step || exit 1; done

lint-swift:
	@echo "swift format lint --strict (every Swift file but the generated ones)"
	@$(SWIFT) format lint --strict --parallel $(SWIFT_SOURCES)

# stackplay's own Lua (sandbox, prelude), the scenarios, the specs and the shipped standards.
lint-lua: lua-tools
	luacheck --no-color scripts spec lint Sources/Bindings/Lua

# Generated files agree with their sources: the embedded Lua and viewer (tools/embed-* --check),
# and as another Lua 5.4 release checks them (its bytes differ; the sources' digests must agree).
# types/stackplay.lua is checked against the registries both ways by APISurfaceTests (swift test).
drift: lua-tools
	tools/embed-lua --check
	STACKPLAY_LUA_RELEASE=5.4.99 tools/embed-lua --check
	tools/embed-viewer --check

# The C targets' layers (docs/development.md, "Targets and layers"): no C file includes another
# target's private header or a header of a target its own does not depend on, no object file calls
# into such a target or into a circle of its own target's files (read from `make build`'s objects).
# The Swift imports (no LuaRuntime in the runner) are LayeringTests', in the Swift suite.
layers: $(STEP_BUILD)
	tools/check-layers

# The Swift suite under AddressSanitizer and UndefinedBehaviorSanitizer together, one build
# in its own scratch folder. It takes the plain path of the engine (docs/design/speed-tricks.md):
# no arena and no pool allocator (compiled out: every block of Lua's heap is malloc's, which ASan
# watches), so a fresh state for every test; the layout reading of `pairs` stays on, for ASan to
# check. UBSan covers the C (Swift's compiler has no -sanitize=undefined on Linux; Swift checks
# overflow and bounds itself), and any undefined behaviour ends the run. The one ASan suppression
# (Tests/asan.supp) is a read past a buffer inside Foundation's Process, not stackplay's code.
# Three suites are left to `make test` (SANITIZE_SKIP; a third of the sanitized run's time, which
# keeps CI under 15 minutes): StackModelTests, the models' math in Swift with no pointer and no C,
# and mutate's two searches (MutateTests, MutateSuggestQualityTests), thousands of runs of the
# engine paths every other suite takes here; MutationReportTests still runs `mutate` sanitized.
SANITIZE := --sanitize=address -Xcc -fsanitize=undefined -Xcc -fno-sanitize-recover=undefined \
	--scratch-path .build/asan
SANITIZE_SKIP := ^(StackModelTests\.|StackplayTests\.(MutateTests|MutateSuggestQualityTests)/)
sanitize: deps
	$(SWIFT) build --build-tests $(SANITIZE)
	ASAN_OPTIONS=detect_leaks=0:suppressions=$(CURDIR)/Tests/asan.supp \
	  UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 $(SWIFT) test --skip-build $(SANITIZE) \
	  --skip '$(SANITIZE_SKIP)'
asan: sanitize

# The plain path of the build users run, every speed trick off (docs/design/speed-tricks.md): fresh
# states, no userfaultfd, eager snapshot copies, `next` through lua_next only, every file in a worker
# (so no execve restart). The engine's own suites (LuaRuntimeTests, BindingsTests), the scenarios
# as written and mirrored and the sandbox's differential cases against lua5.4, on `make test`'s
# debug build: the rest of the suite does not reach the engine in another way.
PLAIN_SWITCHES := STACKPLAY_FRESH_STATES=1 STACKPLAY_NO_USERFAULTFD=1 STACKPLAY_EAGER_SNAPSHOTS=1 \
	STACKPLAY_PLAIN_NEXT=1 STACKPLAY_LOAD_IN_WORKER=1
plain: $(STEP_BUILD) lua-tools
	$(SWIFT) build --build-tests
	$(PLAIN_SWITCHES) $(SWIFT) test --skip-build --filter 'LuaRuntimeTests|BindingsTests'
	$(PLAIN_SWITCHES) $(BIN) --mirror scripts
	$(PLAIN_SWITCHES) python3 Tests/Differential/run.py $(BIN)

# The arena's invariant checks (docs/design/arena.md, "Invariants"; arena_check.c), compiled into
# the debug build and switched on by STACKPLAY_ARENA_CHECKS: after every take and restore, the
# restored bytes hash to the snapshot's checksum and the heap's free lists and bins hold together,
# else the process aborts saying which invariant broke. The engine's suites and the scenarios as
# written and mirrored, every snapshot path on (userfaultfd, lazy copies) as users run them.
invariants: $(STEP_BUILD)
	$(SWIFT) build --build-tests
	STACKPLAY_ARENA_CHECKS=1 $(SWIFT) test --skip-build --filter 'LuaRuntimeTests|BindingsTests'
	STACKPLAY_ARENA_CHECKS=1 $(BIN) --mirror scripts

clean:
	rm -rf .build
