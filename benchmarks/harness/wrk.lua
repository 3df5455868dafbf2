-- The load script of every wrk run of the benchmarks (benchmarks/harness/wrk.py writes the requests
-- file per run and parses what done() prints).
--
--   wrk -t1 -c16 -d10s --timeout 30s -s benchmarks/harness/wrk.lua http://127.0.0.1:PORT -- REQUESTS.lua TAG
--
-- REQUESTS.lua returns a list of requests, each {method = ..., path = ..., headers = {...}, body = ...}.
-- Every connection takes the next one in rotation (pids, tokens, cursors, credentials rotate that
-- way). In a request whose headers or body contain @KEY@, every @KEY@ is replaced by a key unique to
-- the request: TAG .. "-" .. thread id .. "-" .. counter (a unique Idempotency-Key, serialNo, sku),
-- so no two POSTs of any run collide and a run's writes can be told apart by TAG. Requests without
-- @KEY@ are formatted once, in init, so wrk spends no time on them per request.
--
-- done() prints one line, "SUITE_RESULT {json}", that benchmarks/harness/wrk.py parses: wrk's summary
-- (completed requests, duration, socket errors), the latency percentiles (microseconds, from wrk's
-- histogram of every completed request), the requests written ("sent": completed plus those still
-- in flight when wrk stopped, which the server may still process), the count of each HTTP status
-- seen (from response(), so non-2xx answers are counted exactly) and a few samples of non-2xx bodies.

local threads = {}
local thread_count = 0

-- Per thread (each wrk thread has its own Lua state); the globals are read back by done() through
-- thread:get.
local entries, count, position, tag
local counter = 0
sent, statuses, samples = 0, {}, {}

function setup(thread)
   thread_count = thread_count + 1
   thread:set("id", thread_count)
   table.insert(threads, thread)
end

function init(args)
   entries = dofile(args[1])
   count = #entries
   tag = args[2] .. "-" .. id
   -- Threads start at different places of the rotation.
   position = ((id - 1) * 7919) % count
   for _, e in ipairs(entries) do
      local templated = e.body ~= nil and string.find(e.body, "@KEY@", 1, true) ~= nil
      for _, value in pairs(e.headers) do
         if string.find(value, "@KEY@", 1, true) then templated = true end
      end
      if not templated then
         e.prebuilt = wrk.format(e.method, e.path, e.headers, e.body)
      end
   end
end

function request()
   position = position % count + 1
   local e = entries[position]
   sent = sent + 1
   if e.prebuilt then
      return e.prebuilt
   end
   counter = counter + 1
   local key = tag .. "-" .. counter
   local headers = {}
   for name, value in pairs(e.headers) do
      headers[name] = (string.gsub(value, "@KEY@", key))
   end
   local body = nil
   if e.body ~= nil then
      body = (string.gsub(e.body, "@KEY@", key))
   end
   return wrk.format(e.method, e.path, headers, body)
end

function response(status, headers, body)
   local name = tostring(status)
   statuses[name] = (statuses[name] or 0) + 1
   if (status < 200 or status > 299) and #samples < 3 then
      table.insert(samples, name .. " " .. string.sub(body or "", 1, 300))
   end
end

local function json_string(s)
   s = string.gsub(s, '[%c"\\]', function(c)
      return string.format("\\u%04x", string.byte(c))
   end)
   return '"' .. s .. '"'
end

function done(summary, latency, requests)
   local total_sent = 0
   local by_status = {}
   local all_samples = {}
   for _, thread in ipairs(threads) do
      total_sent = total_sent + (thread:get("sent") or 0)
      for name, n in pairs(thread:get("statuses") or {}) do
         by_status[name] = (by_status[name] or 0) + n
      end
      for _, sample in ipairs(thread:get("samples") or {}) do
         table.insert(all_samples, json_string(sample))
      end
   end
   local status_parts = {}
   for name, n in pairs(by_status) do
      table.insert(status_parts, json_string(name) .. ":" .. n)
   end
   local e = summary.errors
   io.write(string.format(
      'SUITE_RESULT {"requests":%d,"duration_us":%d,"sent":%d,' ..
      '"errors":{"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d},' ..
      '"latency_us":{"p50":%d,"p95":%d,"p99":%d,"mean":%.1f,"max":%d},"statuses":{%s},"samples":[%s]}\n',
      summary.requests, summary.duration, total_sent,
      e.connect, e.read, e.write, e.status, e.timeout,
      latency:percentile(50), latency:percentile(95), latency:percentile(99), latency.mean, latency.max,
      table.concat(status_parts, ","), table.concat(all_samples, ",")))
end
