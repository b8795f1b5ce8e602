-- The fixed clock: os.time() and os.date() at 2026-01-01T00:00:00Z, os.clock() 0.
print(os.time())
print(os.date())
print(os.date("%Y-%m-%d %H:%M:%S"))
print(os.clock())
