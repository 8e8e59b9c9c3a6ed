-- play.lua - bench/web.sh's "play" load: wrk with one connection per
-- thread (-t = -c), each playing its own 3-player games as three people
-- at one browser would: create a game, open the 3 seat links, then GET
-- the table of a seat and, if it shows action forms, fill one in (its
-- hidden fields, a choice in each select, one radio of each group) and
-- POST it; a new game when one ends.
--
-- Nothing else moves these games, so every POST must be accepted: a 303
-- back to the table without ?m=.  done() prints, for web.sh,
--   PLAY moves looks refused games ended stuck failed seconds
-- moves: accepted POSTs that stored a line (work, log, side, special,
-- and a Sensor Sweep's order); looks: accepted Sensor Sweep looks (half
-- a move, no line); refused: POSTs not accepted; stuck: games where no
-- seat had a form and the game was not over; failed: a create, link or
-- table GET that did not answer as it should.  A thread's first refusal
-- or failure is written as a REFUSED or FAILED line.

local state, seat, game, form_path, form_body = "create", 1, nil, nil, nil
local cookies, links, misses, told = {}, {}, 0, false
moves, looks, refused, games, ended, stuck, failed = 0, 0, 0, 0, 0, 0, 0
local threads = {}

function setup(thread)
	table.insert(threads, thread)
	thread:set("tid", #threads)
end

function init(args)
	math.randomseed(tid or 1)
end

local entities = { amp = "&", lt = "<", gt = ">", quot = '"', ["#39"] = "'" }

-- An attribute's value as the browser reads it.
local function attr(tag, name)
	local v = tag:match('%s' .. name .. '="([^"]*)"')
	return v and v:gsub("&(#?%w+);", function(e) return entities[e] end)
end

local function urlencode(s)
	return (s:gsub("[^%w%-%._~]", function(c)
		return string.format("%%%02X", c:byte())
	end))
end

-- The body a browser sends for form f, a player picking any of the
-- choices offered.
local function fill(f)
	local t, radios, order = {}, {}, {}
	local function add(n, v) t[#t + 1] = urlencode(n) .. "=" .. urlencode(v) end
	for tag in f:gmatch("<input[^>]*>") do
		local ty, n, v = attr(tag, "type"), attr(tag, "name"), attr(tag, "value")
		if n and ty == "hidden" then
			add(n, v or "")
		elseif n and ty == "radio" then
			if not radios[n] then radios[n] = {}; order[#order + 1] = n end
			table.insert(radios[n], v or "on")
		end
	end
	for _, n in ipairs(order) do
		add(n, radios[n][math.random(#radios[n])])
	end
	for stag, opts in f:gmatch("<select([^>]*)>(.-)</select>") do
		local vs = {}
		for otag in opts:gmatch("<option[^>]*>") do
			vs[#vs + 1] = attr(otag, "value")
		end
		local n = attr(stag, "name")
		if n and #vs > 0 then add(n, vs[math.random(#vs)]) end
	end
	return table.concat(t, "&")
end

-- Writes a thread's first refusal or failure, for the bench to show.
local function tell(what, status, detail)
	if told then return end
	told = true
	io.write(string.format("%s %s %s\n", what, status,
		(detail or ""):gsub("%s+", " "):sub(1, 300)))
end

local function fail(status, what)
	failed = failed + 1
	tell("FAILED", status, what)
	state = "create"
end

function request()
	if state == "create" then
		return wrk.format("POST", "/new",
			{ ["Content-Type"] = "application/x-www-form-urlencoded" },
			"players=3&name1=A&name2=B&name3=C&first=1")
	elseif state == "join" then
		return wrk.format("GET", links[seat])
	elseif state == "post" then
		return wrk.format("POST", form_path,
			{ ["Content-Type"] = "application/x-www-form-urlencoded",
			  ["Cookie"] = cookies[seat] }, form_body)
	else
		return wrk.format("GET", "/g/" .. game, { ["Cookie"] = cookies[seat] })
	end
end

local function created(status, body)
	links = {}
	for l in body:gmatch('href="https?://[^/"]*(/g/[^"]*%?t=[^"]*)"') do
		if links[#links] ~= l then links[#links + 1] = l end
	end
	game = links[1] and links[1]:match("/g/([^?]*)")
	if status ~= 200 or #links ~= 3 or not game then
		return fail(status, "create: " .. #links .. " seat links")
	end
	state, seat, games = "join", 1, games + 1
end

local function joined(status, headers)
	local c = (headers["Set-Cookie"] or ""):match("^([^;]*)")
	if status >= 400 or not c or c == "" then
		return fail(status, "seat link " .. links[seat])
	end
	cookies[seat] = c
	seat = seat + 1
	if seat > 3 then state, seat, misses = "table", 1, 0 end
end

local function posted(status, headers, body)
	local loc = headers["Location"] or ""
	if status == 303 and not loc:find("[?&]m=") then
		if form_body:find("action=look", 1, true) then
			looks = looks + 1
		else
			moves = moves + 1
		end
	else
		refused = refused + 1
		tell("REFUSED", status, loc .. " " .. form_body .. " " ..
			(body:match("<main.*") or body):gsub("<[^>]*>", " "))
	end
	state = "table"
end

local function table_page(status, body)
	if status ~= 200 then
		return fail(status, "table of seat " .. seat)
	end
	local forms = {}
	for f in body:gmatch('<form class="act.-</form>') do
		forms[#forms + 1] = f
	end
	if #forms > 0 then
		local f = forms[math.random(#forms)]
		misses = 0
		form_path = attr(f, "action")
		form_body = fill(f)
		state = "post"
	elseif body:find('<div class="result', 1, true) then
		ended = ended + 1
		state = "create"
	else
		-- not this seat's turn: the next seat's table
		misses = misses + 1
		seat = seat % 3 + 1
		if misses >= 3 then
			stuck = stuck + 1
			tell("FAILED", status, "no seat of game " .. game ..
				" has a form, and it is not over")
			state = "create"
		end
	end
end

function response(status, headers, body)
	if state == "create" then
		created(status, body)
	elseif state == "join" then
		joined(status, headers)
	elseif state == "post" then
		posted(status, headers, body)
	else
		table_page(status, body)
	end
end

function done(summary, latency, requests)
	local sum = {}
	local names = { "moves", "looks", "refused", "games", "ended", "stuck",
	                "failed" }
	for i, n in ipairs(names) do
		sum[i] = 0
		for _, t in ipairs(threads) do sum[i] = sum[i] + t:get(n) end
	end
	io.write(string.format("PLAY %d %d %d %d %d %d %d %.3f\n",
		sum[1], sum[2], sum[3], sum[4], sum[5], sum[6], sum[7],
		summary.duration / 1e6))
end
