#!/usr/bin/env python3
"""The sandbox's differential harness: every snippet in cases/ runs under stock lua5.4 (TZ=UTC)
and under the built stackplay binary; their outputs must be equal, but for the differences that
allowed.txt lists (the one list of them; the README's "Sandbox and budgets" section says why).

Usage: run.py STACKPLAY [--cases DIR] [--allowed FILE] [CASE ...]. Exit status 0 when every case
agrees, 1 otherwise. A snippet is plain Lua that prints what it checks; it must not end in an
uncaught error. `make test-libraries` runs its scripts (beside the libraries they load) with
--cases and its own --allowed.
"""
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CASES = os.path.join(HERE, "cases")


def allowed_differences(path):
    """{case: [(kind, stock regex or None, stackplay text)]} from allowed.txt."""
    table = {}
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            fields = line.split("\t")
            if len(fields) not in (2, 4) or fields[1] not in ("removed", "order", "clock", "binary"):
                sys.exit(f"allowed.txt:{number}: want CASE<tab>KIND[<tab>STOCK-REGEX<tab>STACKPLAY-TEXT]")
            case, kind = fields[0], fields[1]
            rule = (kind, re.compile(fields[2]), fields[3]) if len(fields) == 4 else (kind, None, None)
            table.setdefault(case, []).append(rule)
    return table


def run_stock(case):
    env = dict(os.environ, TZ="UTC")
    done = subprocess.run(
        ["lua5.4", "-e", "io.stdout:setvbuf('no')", case], cwd=CASES, env=env, stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=60)
    return done.stdout.decode("utf-8", "surrogateescape"), done.returncode


def run_stackplay(binary, case):
    done = subprocess.run(
        [binary, "--json", case], cwd=CASES, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
    report = json.loads(done.stdout.decode("utf-8", "surrogateescape"))
    test = report["tests"][0]
    problem = "" if test["status"] == "passed" else f"{test['status']}: {test['message']}"
    return read_bytes(test["output"]), problem


# U+10FF80-U+10FFFF in a report stand for the bytes 0x80-0xFF (docs/sandbox.md): as Python's
# surrogateescape characters, so that the text is stock's bytes decoded the same way.
RAW_BYTES = {0x10FF00 + byte: 0xDC00 + byte for byte in range(0x80, 0x100)}


def read_bytes(text):
    return text.translate(RAW_BYTES).encode("utf-8", "surrogateescape").decode("utf-8", "surrogateescape")


def expected_from_stock(stock, rules):
    """Stock's lines with the allowed differences applied; whether to compare as a set."""
    lines = stock.split("\n")
    unordered = False
    for kind, pattern, text in rules:
        if pattern is None:
            unordered = unordered or kind == "order"
            continue
        lines = [pattern.sub(text, line) for line in lines]
    return lines, unordered


def main():
    global CASES
    arguments = sys.argv[1:]
    if not arguments:
        sys.exit(__doc__)
    binary = os.path.abspath(arguments.pop(0))
    allowed = os.path.join(HERE, "allowed.txt")
    while arguments and arguments[0] in ("--cases", "--allowed") and len(arguments) > 1:
        option, value = arguments.pop(0), os.path.abspath(arguments.pop(0))
        if option == "--cases":
            CASES = value
        else:
            allowed = value
    names = arguments or sorted(n for n in os.listdir(CASES) if n.endswith(".lua"))
    rules = allowed_differences(allowed)
    unknown = sorted(set(rules) - set(os.listdir(CASES)))
    if unknown:
        sys.exit(f"allowed.txt names cases that do not exist: {', '.join(unknown)}")
    failed = 0
    for name in names:
        stock, status = run_stock(name)
        ours, problem = run_stackplay(binary, name)
        if status != 0:
            print(f"FAIL {name}: stock lua5.4 exited {status}:\n{stock}")
            failed += 1
            continue
        if problem:
            print(f"FAIL {name}: stackplay {problem}")
            failed += 1
            continue
        expected, unordered = expected_from_stock(stock, rules.get(name, []))
        actual = ours.split("\n")
        same = sorted(expected) == sorted(actual) if unordered else expected == actual
        if same:
            print(f"ok   {name}")
            continue
        failed += 1
        print(f"FAIL {name}: outputs differ")
        for i in range(max(len(expected), len(actual))):
            e = expected[i] if i < len(expected) else "<none>"
            a = actual[i] if i < len(actual) else "<none>"
            if e != a:
                print(f"  line {i + 1}:\n    lua5.4:    {e!r}\n    stackplay: {a!r}")
    print(f"{len(names) - failed} of {len(names)} cases agree")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
