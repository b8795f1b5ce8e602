import Testing

@testable import Bindings

/// The sorted-key cache behind `next` and `pairs` (sandbox_next.c): checked exactly before it is
/// trusted (issue 42), kept through collections while in use (issue 40), and seeing keys added
/// after a traversal was abandoned (issue 40), in both the layout-reading and the plain path.
extension BindingsTests.DeterministicLibrary {
    /// splitmix64's finalizer, the term the fingerprint of the keys summed before (one per key,
    /// an integer key's bits xor 0x1111...): and its inverse, to make key sets of equal sums.
    static func mix(_ value: UInt64) -> UInt64 {
        var x = value
        x ^= x >> 30
        x = x &* 0xbf58_476d_1ce4_e5b9
        x ^= x >> 27
        x = x &* 0x94d0_49bb_1331_11eb
        x ^= x >> 31
        return x
    }

    static func unmix(_ value: UInt64) -> UInt64 {
        func unshift(_ y: UInt64, _ shift: UInt64) -> UInt64 {
            var x = y
            for _ in 0..<(64 / shift + 1) { x = y ^ (x >> shift) }
            return x
        }
        func inverse(_ odd: UInt64) -> UInt64 {
            var inverse = odd
            for _ in 0..<6 { inverse = inverse &* (2 &- odd &* inverse) }
            return inverse
        }
        var x = unshift(value, 31)
        x = x &* inverse(0x94d0_49bb_1331_11eb)
        x = unshift(x, 27)
        x = x &* inverse(0xbf58_476d_1ce4_e5b9)
        return unshift(x, 30)
    }

    /// Two integer keys whose terms sum as those of `a` and `b` do (mod 2^64).
    static func colliding(_ a: Int64, _ b: Int64, delta: UInt64) -> (Int64, Int64) {
        let salt: UInt64 = 0x1111_1111_1111_1111
        let termA = mix(UInt64(bitPattern: a) ^ salt)
        let termB = mix(UInt64(bitPattern: b) ^ salt)
        let c = unmix(termA &+ delta) ^ salt
        let d = unmix(termB &- delta) ^ salt
        return (Int64(bitPattern: c), Int64(bitPattern: d))
    }

    @Test func `the colliding keys really collide under the old fingerprint`() {
        let (c, d) = Self.colliding(1, 2, delta: 0x1234_5678_9abc)
        let salt: UInt64 = 0x1111_1111_1111_1111
        func term(_ key: Int64) -> UInt64 { Self.mix(UInt64(bitPattern: key) ^ salt) }
        #expect(Self.unmix(Self.mix(0xdead_beef)) == 0xdead_beef)
        #expect(term(1) &+ term(2) == term(c) &+ term(d))
        #expect(Set([c, d]).isDisjoint(with: [1, 2]))
    }

    /// Issue 42: the keys of a table swapped for others of the same count whose fingerprint is the
    /// same: the cache was trusted on that sum, and next(t) said the table was empty.
    @Test(arguments: [true, false])
    func `keys swapped for others with an equal fingerprint are traversed as they are`(layout: Bool) throws {
        let (c, d) = Self.colliding(1, 2, delta: 0x1234_5678_9abc)
        let (e, f) = Self.colliding(3, 4, delta: 0x0f0f_0f0f)
        let code = """
            local function keys(t) local o = {} for k in pairs(t) do o[#o + 1] = tostring(k) end return table.concat(o, " ") end
            local small = { [1] = true, [2] = true, x = true }
            local big = { [3] = true, [4] = true }
            for i = 1, 30 do big["k" .. i] = true end
            local before = keys(small) .. " | " .. tostring(next(big))
            small[1], small[2], small[\(c)], small[\(d)] = nil, nil, true, true
            big[3], big[4], big[\(e)], big[\(f)] = nil, nil, true, true
            return before, keys(small), tostring(next(small)), keys(big), tostring(next(big))
            """
        let small = [c, d].sorted().map(String.init).joined(separator: " ") + " x"
        let bigKeys = ([e, f].sorted().map(String.init) + (1...30).map { "k\($0)" }.sorted())
        #expect(
            try sandboxed(code, layout: layout) == [
                "1 2 x | 3", small, String(min(c, d)), bigKeys.joined(separator: " "), String(min(e, f)),
            ])
    }

    /// Issue 40: a traversal stopped early, keys added, then next(t, k) from where it stopped: the
    /// next key in order among the table's keys now, as stock returns the next key (not nil).
    @Test(arguments: [true, false])
    func `next(t, k) after an abandoned traversal sees the keys added since`(layout: Bool) throws {
        let code = """
            local small = { a = 1 }
            for _ in pairs(small) do break end
            small.b = 2
            local big = {}
            for i = 1, 40 do big[i * 2] = i end
            for _ in pairs(big) do break end
            big[81] = true
            local list = { 10, 20, 30 }
            for _ in pairs(list) do break end
            table.insert(list, 40)
            local raw = { x = 1 }
            for _ in pairs(raw) do break end
            rawset(raw, "y", 2)
            return tostring(next(small, "a")), tostring(next(big, 80)), tostring(next(list, 3)), tostring(next(raw, "x"))
            """
        #expect(try sandboxed(code, layout: layout) == ["b", "81", "4", "y"])
    }

    /// Issue 40: a collection step in the loop's body collected the cache at each step, so each
    /// step sorted the keys again (10^5 keys: past the 10 s budget; stock: 0.2 s).
    @Test(arguments: [true, false])
    func `a collection step in every iteration of a traversal never sorts the keys again`(layout: Bool) throws
    {
        let code = """
            local t = {}
            for i = 1, 100000 do t["k" .. i] = i end
            local n, sum, last, ordered = 0, 0, "", true
            for k, v in pairs(t) do
              n, sum = n + 1, sum + v
              if not (last < k) then ordered = false end
              last = k
              collectgarbage("step")
            end
            return tostring(n), tostring(sum), tostring(ordered)
            """
        let clock = ContinuousClock()
        let started = clock.now
        #expect(try sandboxed(code, layout: layout) == ["100000", "5000050000", "true"])
        #expect(clock.now - started < .seconds(20))
    }

    /// The ring of small tables' caches (sandbox_next.c): more small tables traversed at once than
    /// it holds, nested traversals, a table that grows past it and shrinks back, weak tables.
    @Test(arguments: [true, false])
    func `small tables traverse right however many are in progress at once`(layout: Bool) throws {
        let code = """
            local tables, at, out = {}, {}, {}
            for i = 1, 20 do tables[i] = { c = i, a = i, b = i, [i] = i } end
            for i = 1, 20 do at[i] = next(tables[i]) end
            for _ = 1, 4 do
              for i = 1, 20 do
                out[#out + 1] = tostring(at[i])
                if at[i] ~= nil then at[i] = next(tables[i], at[i]) end
              end
            end
            local nested = {}
            local x, y = { p = 1, q = 2 }, { r = 1, s = 2 }
            for k in pairs(x) do for k2 in pairs(y) do nested[#nested + 1] = k .. k2 end end
            local g = {}
            for i = 1, 10 do g["k" .. i] = i end
            for _ in pairs(g) do end
            for i = 11, 40 do g["k" .. i] = i end
            local grown = 0
            for _ in pairs(g) do grown = grown + 1 end
            for i = 1, 36 do g["k" .. i] = nil end
            local shrunk = {}
            for k in pairs(g) do shrunk[#shrunk + 1] = k end
            local weak = setmetatable({}, { __mode = "k" })
            for i = 1, 5 do weak[{}] = i end
            for _ in pairs(weak) do break end
            collectgarbage()
            collectgarbage()
            return out[1] .. " " .. out[21] .. " " .. out[41] .. " " .. out[61] .. " " .. out[80],
              table.concat(nested, " "), tostring(grown), table.concat(shrunk, " "), tostring(next(weak))
            """
        #expect(
            try sandboxed(code, layout: layout) == [
                "1 a b c c", "pr ps qr qs", "40", "k37 k38 k39 k40", "nil",
            ])
    }

    /// A metatable's own fields ("__gc", "__mode") decide which flag bit marks a checked table:
    /// with both, the table is checked again instead of trusted, and stays right.
    @Test(arguments: [true, false])
    func `a table holding __gc and __mode fields traverses right after keys are added`(layout: Bool) throws {
        let code = """
            local m = { __gc = false, __mode = "k", x = 1 }
            local first = {}
            for k in pairs(m) do first[#first + 1] = k end
            for _ in pairs(m) do break end
            m.y = 2
            return table.concat(first, " "), tostring(next(m, "x")), tostring(next(m, "__mode"))
            """
        #expect(try sandboxed(code, layout: layout) == ["__gc __mode x", "y", "x"])
    }

    /// Tables of one shape share one sort (sb_reuse_small): an ended traversal's keys are taken over
    /// by a table whose every slot holds the same key, never by one whose keys differ in any slot
    /// (`[13]` sits where `[10]` sat, its first and last slots are the same), nor while the first
    /// table's traversal is in progress; the first table, its cache taken, traverses right again.
    @Test(arguments: [true, false])
    func `tables of one shape share a sort only when every slot holds the same key`(layout: Bool) throws {
        let code = """
            local function keys(t) local o = {} for k, v in pairs(t) do o[#o + 1] = tostring(k) .. "=" .. tostring(v) end return table.concat(o, " ") end
            local a, b = { [30] = 1, [10] = 2, [20] = 3 }, { [30] = 4, [13] = 5, [20] = 6 }
            local shapes = keys(a) .. " | " .. keys(b)
            local records = {}
            for i = 1, 5 do records[i] = keys({ name = "n" .. i, x = i, y = i / 2, on = i % 2 == 0 }) end
            local p, q, nested = { x = 1, y = 2 }, { x = 3, y = 4 }, {}
            for k, v in pairs(p) do for k2, v2 in pairs(q) do nested[#nested + 1] = k .. v .. k2 .. v2 end end
            local first, second = { u = 1, v = 2, w = 3 }, { u = 4, v = 5, w = 6 }
            keys(first)
            local taken = keys(second)
            local again = tostring(next(first, "u")) .. " " .. tostring(next(first)) .. " " .. keys(first)
            return shapes, table.concat(records, " | "), table.concat(nested, " "), taken .. " | " .. again
            """
        #expect(
            try sandboxed(code, layout: layout) == [
                "10=2 20=3 30=1 | 13=5 20=6 30=4",
                (1...5).map { i in
                    "name=n\(i) on=\(i % 2 == 0) x=\(i) y=\(i % 2 == 0 ? "\(i / 2).0" : "\(Double(i) / 2)")"
                }.joined(separator: " | "),
                "x1x3 x1y4 y2x3 y2y4",
                "u=4 v=5 w=6 | v u u=1 v=2 w=3",
            ])
    }

    /// Numbers and booleans are copied from their slot (sb_layout_push_plain), other values looked
    /// up: every kind comes back as it is now, a value assigned during the traversal included, an
    /// integer as an integer and a float as a float.
    @Test(arguments: [true, false])
    func `next returns each value as the table holds it now`(layout: Bool) throws {
        let code = """
            local function show(v) return math.type(v) or (type(v) == "table" and "table" or tostring(v)) end
            local t = { 7, 2.5, false, i = 3, f = -0.5, yes = true, no = false, s = "str", o = {} }
            local seen = {}
            for k, v in pairs(t) do
              if k == 1 then t.i, t.f, t.s, t[3] = 4.0, 1, "new", true end
              seen[#seen + 1] = tostring(k) .. "=" .. show(v) .. ":" .. tostring(v):gsub("table: .*", "t")
            end
            return table.concat(seen, " ")
            """
        #expect(
            try sandboxed(code, layout: layout) == [
                "1=integer:7 2=float:2.5 3=true:true f=integer:1 i=float:4.0 no=false:false o=table:t s=new:new yes=true:true"
            ])
    }

    /// Many small tables of a few shapes, keys removed, given back and added between traversals
    /// that run to the end or stop early, next(t, k) resumed after other tables took the ring:
    /// every traversal gives exactly the keys the table holds, in the documented order (checked
    /// against a shadow list sorted in Lua). Shared sorts meet every case here.
    @Test(arguments: [true, false])
    func `tables built alike and changed between traversals always traverse their own keys in order`(
        layout: Bool
    ) throws {
        let code = """
            local seed = 12345
            local function random(n) seed = (seed * 1103515245 + 12345) % 2147483648 return seed % n + 1 end
            local pool = { "a", "b", "c", "d", "e", "f", "g", "h", 1, 2, 3, 10, -5, 2.5, true, false, "long_prefix_1", "long_prefix_2" }
            local function before(x, y)
              local tx, ty = type(x), type(y)
              local rx = tx == "number" and 1 or tx == "string" and 2 or 3
              local ry = ty == "number" and 1 or ty == "string" and 2 or 3
              if rx ~= ry then return rx < ry end
              if rx == 3 then return x == false and y == true end
              return x < y
            end
            local function expected(keys) local o = {} for k in pairs(keys) do o[#o + 1] = k end table.sort(o, before) return o end
            local shapes = { { "a", "b", "c", 1, 2 }, { "d", "e", true, 10 }, { "long_prefix_1", "long_prefix_2", "a", -5, 2.5 } }
            local tables, shadows, stops, bad, checked = {}, {}, {}, 0, 0
            local function check(i)
              local want, got = expected(shadows[i]), {}
              for k, v in pairs(tables[i]) do
                got[#got + 1] = k
                if v ~= shadows[i][k] then bad = bad + 1 end
              end
              checked = checked + 1
              if #got ~= #want then bad = bad + 1 return end
              for j = 1, #want do if got[j] ~= want[j] then bad = bad + 1 return end end
            end
            for round = 1, 400 do
              local i = random(24)
              if not tables[i] or random(6) == 1 then
                local shape = shapes[random(#shapes)]
                tables[i], shadows[i] = {}, {}
                for _, k in ipairs(shape) do tables[i][k], shadows[i][k] = round, round end
              end
              local op = random(5)
              local k = pool[random(#pool)]
              if op == 1 then tables[i][k], shadows[i][k] = nil, nil
              elseif op == 2 then tables[i][k], shadows[i][k] = round, round
              elseif op == 3 then stops[i] = next(tables[i])
              elseif op == 4 and stops[i] ~= nil and shadows[i][stops[i]] ~= nil then
                local want = expected(shadows[i])
                local after
                for j = 1, #want do if want[j] == stops[i] then after = want[j + 1] end end
                if next(tables[i], stops[i]) ~= after then bad = bad + 1 end
                stops[i] = after
              end
              check(i)
            end
            return tostring(checked), tostring(bad)
            """
        #expect(try sandboxed(code, layout: layout) == ["400", "0"])
    }
}
