---@meta
-- editors/luals/cairn.lua: LuaLS annotations for cairn's Lua API (docs/lua-api.md,
-- docs/stdlib.md), so that VS Code and Neovim complete and type-check rules
-- (docs/editors.md). Never run: `---@meta` files only describe. `cairn new` writes a
-- .luarc.json that points LuaLS here and at the stdlib's sources. A test
-- (tools/check-reference) compares every g field, g.rng function, handler and stdlib
-- function named here with the live sandbox's, both ways.

---A value a YAML file can hold: integers, strings, booleans, lists, string-keyed maps.
---@alias cairn.Plain integer|string|boolean|table

---@class cairn.Seat
---@field name string the seat's name ("Ann")
---@field bot? string the bot's kind ("random"), nil for a person

---@class cairn.Rng the engine's random numbers: only setup and apply may draw
---@field int fun(lo: integer, hi: integer): integer an integer in [lo, hi], uniform
---@field die fun(sides: integer): integer g.rng.int(1, sides)
---@field shuffle fun(list: table): table shuffles list in place (Fisher-Yates) and returns it
---@field pick fun(list: table): any one element of a non-empty list, uniform
---@field weighted fun(weights: integer[]): integer an index i with probability weights[i] / sum

---@class cairn.Event
---@field text string
---@field to? integer|integer[] only these seats see it
---@field except? integer|integer[] everyone but these seats sees it

---@class cairn.G the game, as a handler sees it: fixed, nothing can be added
---@field state table the game state, plain data; writable in setup and apply only
---@field data table<string, any> the ruleset's data by table name, overlays merged; read-only
---@field options table<string, boolean|string> option values by id; read-only
---@field seats cairn.Seat[] the seats; #g.seats is the seat count
---@field rng cairn.Rng the engine's random numbers
---@field log fun(event: string|cairn.Event) records an event (setup and apply only)
---@field text fun(key: string, ...: any): string the ruleset's text for key, formatted
---@field log_text fun(key: string, ...: any) g.log(g.text(key, ...)), formatting nothing in playouts
---@field lang string the language code in use ("en")
---@field labels boolean true when a person will read the decisions asked now
---@field debug fun(...: any) a line on the debug channel (`debug on`, --debug); never in the game
---@field width? integer render's g only: the screen's columns (nil: not known)
---@field height? integer render's g only: the rows the board may take (nil: the full board is asked for)

---@class cairn.Option
---@field id string stable text: what the log, saves and tests store
---@field label? string what the console shows (default: the id)
---@field disabled? string|boolean why it cannot be chosen now (true: ask rules.reason)
---@field bot? boolean false: search bots pass it by while another option is enabled

---@class cairn.Decision
---@field seat integer the seat asked
---@field prompt? string a line shown to that seat
---@field options (string|cairn.Option)[] a non-empty list
---@field hidden? boolean ask without telling the others

---@class cairn.ScoreLine
---@field label string
---@field points integer
---@field key? string the line's stable name, for cairn sim

---@class cairn.SeatScore
---@field total integer
---@field breakdown? cairn.ScoreLine[]
---@field tiebreak? integer higher wins a tie

---@class cairn.Scores: { [integer]: cairn.SeatScore }
---@field ranking? integer[][] tiers of seats, best first

---A ruleset bot: the seat's view, the seat, its enabled option ids, render's g.
---@alias cairn.Bot fun(view: table, seat: integer, options: string[], g: cairn.G): string

---@class cairn.Rules the table of handlers a ruleset's main script returns
---@field setup fun(g: cairn.G) fill g.state from g.data, g.options, g.seats, g.rng
---@field decisions fun(g: cairn.G): cairn.Decision[] who must decide now; {} when the game is over
---@field apply fun(g: cairn.G, seat: integer, id: string) apply one chosen option; error() refuses it
---@field score? fun(g: cairn.G): cairn.Scores per-seat totals with a breakdown
---@field render? fun(view: table, seat: integer?, g: cairn.G): string text for the console
---@field check? fun(g: cairn.G): string? nil, or the broken invariant
---@field heuristic? fun(g: cairn.G, seat: integer): integer added to seat's provisional score by the bots
---@field label? fun(g: cairn.G, seat: integer, id: string): string an option's label
---@field prompt? fun(g: cairn.G, seat: integer): string a decision's prompt
---@field reason? fun(g: cairn.G, seat: integer, id: string): string why an option is disabled
---@field determinize? fun(view: table, seat: integer, rng: cairn.Rng, g: cairn.G): table a full state consistent with view
---@field check_data? fun(g: cairn.G): (string|{at: string|(string|integer)[], message: string})[]? the data's problems a schema cannot state, each at its file:line
---@field start_seat? fun(g: cairn.G): integer the seat that starts (the balance lab's turn positions)
---@field parse? fun(g: cairn.G, seat: integer, text: string): (string[]|string)? a typed line no option matches: option ids to answer in order, or the reason it cannot be
---@field metrics? fun(g: cairn.G): table<string, integer|integer[]> figures `cairn sim --trajectory` follows: name = integer (the game) or {integer per seat}
---@field bots? table<string, cairn.Bot> named policies, `--bot 2=RULESET:NAME`

---The function an option's script returns: wraps or replaces handlers.
---@alias cairn.OptionScript fun(rules: cairn.Rules): cairn.Rules

-- ------------------------------------------------------------------ the stdlib
-- Each module is a class (`cairn.bag`, ...): `---@type cairn.bag` on `local bag = require
-- "cairn.bag"` types it; .luarc.json also lets LuaLS read the sources in
-- stdlib (share/cairn/stdlib), so require resolves.

---@class cairn.bag a bag is a map item -> count
local bag = {}
---@param contents table<string, integer>|string[]
---@return table<string, integer>
function bag.new(contents) end
---@param b table<string, integer>
---@param item string
---@param n? integer
---@return table<string, integer> b
function bag.add(b, item, n) end
---@param b table<string, integer>
---@param item string
---@param n? integer
---@return table<string, integer> b
function bag.remove(b, item, n) end
---@param b table<string, integer>
---@param item? string
---@return integer
function bag.count(b, item) end
---@param b table<string, integer>
---@return string[]
function bag.items(b) end
---@param b table<string, integer>
---@return table<string, integer>
function bag.contents(b) end
---@param b table<string, integer>
---@return string[]
function bag.list(b) end
---@param b table<string, integer>
---@return boolean
function bag.is_empty(b) end
---@param b table<string, integer>
---@param rng cairn.Rng
---@param kinds? string[] sorted: every item the bag may hold (the same draw, without walking the bag)
---@return string?
function bag.draw(b, rng, kinds) end
---@param b table<string, integer>
---@param rng cairn.Rng
---@param n integer
---@param kinds? string[]
---@return string[]
function bag.draw_many(b, rng, n, kinds) end
---@param b table<string, integer>
---@param items string[]
---@return table<string, integer> b
function bag.add_all(b, items) end
---@param def table
---@return table<string, integer>
function bag.from_component(def) end

---@class cairn.deck a deck is {draw = {...}, discard = {...}}
local deck = {}
---@param cards any[]
---@return table
function deck.new(cards) end
---@param list any[]
---@param rng cairn.Rng
---@return any[]
function deck.shuffle_list(list, rng) end
---@param d table
---@param rng cairn.Rng
---@return table
function deck.shuffle(d, rng) end
---@param d table
---@param rng cairn.Rng
---@return table
function deck.reshuffle(d, rng) end
---@param d table
---@param rng? cairn.Rng
---@return any
function deck.draw(d, rng) end
---@param d table
---@param n integer
---@param rng? cairn.Rng
---@return any[]
function deck.draw_many(d, n, rng) end
---@param d table
---@param card any
---@return table
function deck.discard(d, card) end
---@param d table
---@param card any
---@return table
function deck.put_top(d, card) end
---@param d table
---@param card any
---@return table
function deck.put_bottom(d, card) end
---@param d table
---@return integer
function deck.size(d) end
---@param d table
---@return integer
function deck.discards(d) end
---@param d table
---@param n? integer
---@return any[]
function deck.peek(d, n) end
---@param def table
---@param rng? cairn.Rng
---@return table
function deck.from_component(def, rng) end

---@class cairn.track markers on a numbered track
local track = {}
---@param min integer
---@param max integer
---@param wrap? boolean
---@return table
function track.new(min, max, wrap) end
---@param pos integer
---@param k integer
---@param min integer
---@param max integer
---@param wrap? boolean
---@return integer
function track.step(pos, k, min, max, wrap) end
---@param t table
---@param who string|integer
---@param pos integer
---@return table t
function track.place(t, who, pos) end
---@param t table
---@param who string|integer
---@return integer?
function track.position(t, who) end
---@param t table
---@param who string|integer
---@param k integer
---@return integer
function track.move(t, who, k) end
---@param t table
---@param pos integer
---@return (string|integer)[]
function track.at(t, pos) end
---@param t table
---@return (string|integer)[]
function track.ranking(t) end
---@param t table
---@param who string|integer
---@return boolean
function track.is_at_end(t, who) end
---@param def table
---@return table
function track.from_component(def) end

---@class cairn.grid rectangular, brick and offset grids; groups
local grid = {}
---@param r integer
---@param c integer
---@return string
function grid.key(r, c) end
---@param key string
---@return integer, integer
function grid.parse(key) end
---@param shape table
---@return integer
function grid.row_count(shape) end
---@param shape table
---@param r integer
---@return integer
function grid.width(shape, r) end
---@param shape table
---@param r integer
---@param c integer
---@return boolean
function grid.in_bounds(shape, r, c) end
---@param shape table
---@return integer[][]
function grid.cells(shape) end
---@param shape table
---@param r integer
---@param c integer
---@return integer[][]
function grid.neighbours(shape, r, c) end
---@param shape table
---@param r integer
---@param c integer
---@return integer[][]
function grid.below(shape, r, c) end
---@param shape table
---@param r integer
---@param c integer
---@param pred fun(r: integer, c: integer): boolean
---@param seen? table
---@return integer[][]
function grid.flood(shape, r, c, pred, seen) end
---@param shape table
---@param value fun(r: integer, c: integer): any
---@return table[]
function grid.groups(shape, value) end
---@param def table
---@return table
function grid.from_component(def) end

---@class cairn.graph nodes and edges; paths; components
local graph = {}
---@param edges table[]
---@param directed? boolean
---@param nodes? string[]
---@return table
function graph.new(edges, directed, nodes) end
---@param g table
---@return string[]
function graph.nodes(g) end
---@param g table
---@param node string
---@return string[]
function graph.neighbours(g, node) end
---@param g table
---@param a string
---@param b string
---@return integer?
function graph.weight(g, a, b) end
---@param g table
---@param from string
---@param to string
---@param passable? fun(node: string): boolean
---@return string[]?, integer?
function graph.shortest_path(g, from, to, passable) end
---@param g table
---@param from string
---@param passable? fun(node: string): boolean
---@return string[]
function graph.reachable(g, from, passable) end
---@param g table
---@param keep? fun(node: string): boolean
---@return string[][]
function graph.components(g, keep) end
---@param def table
---@return table
function graph.from_component(def) end

---@class cairn.turn turn order around the table
local turn = {}
---@param seat integer
---@param n integer
---@param k integer
---@return integer
function turn.step(seat, n, k) end
---@param seat integer
---@param n integer
---@param dir? integer
---@return integer
function turn.next(seat, n, dir) end
---@param seat integer
---@param n integer
---@param dir? integer
---@return integer
function turn.prev(seat, n, dir) end
---@param start integer
---@param n integer
---@param dir? integer
---@return integer[]
function turn.order(start, n, dir) end
---@param start integer
---@param n integer
---@param dir? integer
---@return integer[]
function turn.from_holder(start, n, dir) end
---@param seat integer
---@param n integer
---@param dir? integer
---@return integer
function turn.rotate_start(seat, n, dir) end
---@param from integer
---@param to integer
---@param n integer
---@param dir? integer
---@return integer
function turn.distance(from, to, n, dir) end
---@param order integer[]
---@param seat integer
---@return integer?
function turn.position(order, seat) end

---@class cairn.text text for boards: widths with markup, padding, wrapping, seat names, names
local text = {}
---@param s string
---@return integer
function text.width(s) end
---@param s string
---@param w integer
---@return string
function text.pad(s, w) end
---@param list string[]?
---@return string
function text.tags(list) end
---@param list string[]?
---@param s string
---@return string
function text.paint(list, s) end
---@param head string
---@param parts string[]
---@param indent integer
---@param max integer
---@return string[]
function text.wrap(head, parts, indent, max) end
---@param line string
---@param max integer
---@param indent integer
---@return string[]
function text.fit(line, max, indent) end
---@param lines string[]
---@param max integer?
---@param indent integer
---@return string[]
function text.fit_lines(lines, max, indent) end
---@param s string
---@param n integer
---@return string
function text.cut(s, n) end
---@param g cairn.G
---@param seat integer
---@return string
function text.seat_name(g, seat) end
---@param g cairn.G
---@param prefix string
---@param part string|integer
---@return string
function text.name(g, prefix, part) end

---@class cairn.tables scoring-table lookups; copy; sorted keys
local tables = {}
---@param rows table[]
---@param x integer
---@param opts? table
---@return any
function tables.exact(rows, x, opts) end
---@param rows table[]
---@param x integer
---@param opts? table
---@return any
function tables.at_least(rows, x, opts) end
---@param list any[]
---@param i integer
---@param default? any
---@return any
function tables.clamp_index(list, i, default) end
---@param map table
---@param key string
---@return any
function tables.get(map, key) end
---@generic T
---@param value T
---@return T
function tables.copy(value) end
---@param map table
---@return string[]
function tables.keys(map) end
---@param map table
---@return string[]
function tables.keys_sorted(map) end
---@param t table
---@return integer
function tables.sum(t) end
---@param list any[]
---@param value any
---@return integer?
function tables.find(list, value) end
---@param list table[]
---@param field string
---@param value any
---@return table?
function tables.by(list, field, value) end
---@param list any[]
---@param f? fun(x: any): integer
---@return any, integer?
function tables.max(list, f) end

---@class cairn.IdSet
---@field parts table<string, any[]>
---@field tree table
---@field pairs table<string|integer, table<string|integer, string>>

---@class cairn.ids option ids made once, their parts read back
local ids = {}
---@return cairn.IdSet
function ids.new() end
---@param set cairn.IdSet
---@param a string|integer
---@param b? string|integer
---@param c? string|integer
---@param d? string|integer
---@return string
function ids.id(set, a, b, c, d) end
---@param set cairn.IdSet
---@param a string|integer
---@return table<string|integer, string>
function ids.of(set, a) end

---@class cairn.derived tables worked out from g.data once per game
local derived = {}
---@param data table g.data
---@param f fun(data: table): any a function defined once (a module's local)
---@return any
function derived.of(data, f) end
---@param data table g.data
---@param list table[] a list inside data
---@param field string
---@param value any
---@return table?
function derived.by(data, list, field, value) end

---@class cairn.fake_rng for tests: a seeded or scripted stand-in for g.rng
local fake_rng = {}
---@param seed? integer
---@return cairn.Rng
function fake_rng.new(seed) end
---@param values integer[]
---@return cairn.Rng
function fake_rng.script(values) end
