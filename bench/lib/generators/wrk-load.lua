-- The bench's wrk script. wrk (C, one thread, its own process) sends the load; this script only
-- hands it requests prepared before the run: the request file (bench/lib/generators/request-file.mjs)
-- names the method, path and headers and lists the bodies, which are cycled in order. A body with
-- the marker {n} gets a value unique to the run in its place (activate: a new instance each time):
-- the run's tag (the script's second argument), the thread and a counter.
-- done() prints one WRK_RESULT line of JSON, which wrk.mjs reads.

local method, path = "GET", "/"
local headers = {}
local prepared = {}   -- whole requests, when no body has the marker
local parts = {}      -- { before, after } the marker, per body
local unique = false
local tag = ""
local count = 0
local index = 0
local sent = 0

function setup(thread)
  -- Each thread numbers its own requests; its id keeps those numbers apart from other threads'.
  threads_seen = (threads_seen or 0) + 1
  thread:set("thread_id", threads_seen)
end

function init(args)
  local bodies = {}
  tag = args[2] or ""
  for line in io.lines(args[1]) do
    local kind, rest = line:sub(1, 1), line:sub(3)
    if kind == "M" then
      method = rest
    elseif kind == "P" then
      path = rest
    elseif kind == "H" then
      local name, value = rest:match("^([^:]+): (.*)$")
      headers[name] = value
    elseif kind == "U" then
      unique = true
    elseif kind == "B" then
      bodies[#bodies + 1] = rest
    end
  end
  if #bodies == 0 then
    prepared[1] = wrk.format(method, path, headers, nil)
  elseif unique then
    for i, body in ipairs(bodies) do
      local before, after = body:match("^(.-){n}(.*)$")
      parts[i] = { before or body, after or "" }
    end
  else
    for i, body in ipairs(bodies) do
      prepared[i] = wrk.format(method, path, headers, body)
    end
  end
  count = unique and #parts or #prepared
end

function request()
  index = index % count + 1
  if unique then
    sent = sent + 1
    local part = parts[index]
    return wrk.format(method, path, headers, part[1] .. tag .. "-" .. thread_id .. "-" .. sent .. part[2])
  end
  return prepared[index]
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'WRK_RESULT {"requests":%d,"durationUs":%d,"bytes":%d,"connectErrors":%d,"readErrors":%d,' ..
      '"writeErrors":%d,"statusErrors":%d,"timeouts":%d,"p50Us":%d,"p99Us":%d,"meanUs":%.1f,"maxUs":%d}\n',
    summary.requests, summary.duration, summary.bytes, e.connect, e.read, e.write, e.status, e.timeout,
    latency:percentile(50), latency:percentile(99), latency.mean, latency.max))
end
