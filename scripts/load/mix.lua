-- wrk script: a mix of valid and malformed requests against the reference server or the mock,
-- counting answers by status class. None of them adds to the server's state (no lobby or message
-- is created), so memory that grows is memory the server does not give back.
--
-- Against the reference server 4 of the 15 are 2xx: three valid requests, and the JSON sent as
-- `text/plain` (an endpoint with one body format reads the body in that format whatever its
-- `Content-Type`; only one with several formats answers 415); lobby 1 is not in the default
-- world, so its messages are a 404, and the other 10 are 4xx too. The mock has every lobby and
-- accepts every credential, so the lobby and the unknown and malformed credentials are 2xx
-- there as well: 7 of 15 are 2xx, 8 are 4xx.
--
-- Environment: LOAD_MAX_REQUESTS bounds the requests of the whole run (split between threads).

local bot = "Bot bot-token"
local alice = "Bearer alice-token"
local json = "application/json"

local mix = {
  -- valid
  { "GET", "/api/users/@me/connections", { Authorization = alice } },
  { "GET", "/api/guilds/1/channels", { Authorization = bot } },
  { "PUT", "/api/channels/12/voice-status", { Authorization = bot, ["Content-Type"] = json }, '{"status":"load"}' },
  { "GET", "/api/lobbies/1/messages", { Authorization = alice } },
  -- bad JSON, wrong types
  { "PUT", "/api/channels/12/voice-status", { Authorization = bot, ["Content-Type"] = json }, '{"status": ' },
  { "PUT", "/api/channels/12/voice-status", { Authorization = bot, ["Content-Type"] = json }, '{"status": 5}' },
  { "POST", "/api/lobbies/1/members/bulk", { Authorization = bot, ["Content-Type"] = json }, '[{"id": "abc"}]' },
  -- wrong content type
  { "PUT", "/api/channels/12/voice-status", { Authorization = bot, ["Content-Type"] = "text/plain" }, '{"status":"load"}' },
  { "POST", "/oauth2/token", { Authorization = "Basic OTAwMTpyZWZlcmVuY2Utc2VjcmV0", ["Content-Type"] = json }, '{"grant_type":"refresh_token"}' },
  -- missing and wrong credentials
  { "GET", "/api/users/@me/connections", {} },
  { "GET", "/api/users/@me/connections", { Authorization = "Bot nope" } },
  { "GET", "/api/users/@me/connections", { Authorization = "Basic !!" } },
  -- unknown routes and methods, bad path ids
  { "GET", "/api/nowhere", {} },
  { "DELETE", "/api/lobbies", { Authorization = alice } },
  { "GET", "/api/guilds/abc/channels", { Authorization = bot } },
}

local threads = {}

function setup(thread)
  thread:set("id", #threads + 1)
  table.insert(threads, thread)
end

function init(args)
  counts = { ["2xx"] = 0, ["3xx"] = 0, ["4xx"] = 0, ["5xx"] = 0, other = 0 }
  sent = 0
  local max = tonumber(os.getenv("LOAD_MAX_REQUESTS") or "0")
  local n = tonumber(os.getenv("LOAD_THREADS") or "1")
  budget = max > 0 and math.ceil(max / n) or math.huge
  requests = {}
  for i, m in ipairs(mix) do
    requests[i] = wrk.format(m[1], m[2], m[3], m[4])
  end
end

function request()
  sent = sent + 1
  if sent > budget then
    wrk.thread:stop()
  end
  return requests[(sent + id) % #requests + 1]
end

function response(status, headers, body)
  local class = math.floor(status / 100)
  local key = (class >= 2 and class <= 5) and (class .. "xx") or "other"
  counts[key] = counts[key] + 1
end

function done(summary, latency, requests)
  local total = { ["2xx"] = 0, ["3xx"] = 0, ["4xx"] = 0, ["5xx"] = 0, other = 0 }
  for _, thread in ipairs(threads) do
    local c = thread:get("counts")
    for k, v in pairs(c) do
      total[k] = total[k] + v
    end
  end
  local e = summary.errors
  io.write(string.format(
    'LOAD_RESULT {"requests": %d, "duration_us": %d, "status_2xx": %d, "status_3xx": %d, "status_4xx": %d, "status_5xx": %d, "status_other": %d, ' ..
    '"errors_connect": %d, "errors_read": %d, "errors_write": %d, "errors_timeout": %d, "p50_us": %d, "p90_us": %d, "p99_us": %d, "max_us": %d}\n',
    summary.requests, summary.duration, total["2xx"], total["3xx"], total["4xx"], total["5xx"], total.other,
    e.connect, e.read, e.write, e.timeout,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max))
end
