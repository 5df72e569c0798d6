-- wrk script: cycles through request paths read from a file (one per line), and prints a JSON
-- summary line the bench parses.
local paths = {}
local counter = 0

init = function(args)
  for line in io.lines(args[1]) do paths[#paths + 1] = line end
  counter = math.random(#paths)
end

request = function()
  counter = counter % #paths + 1
  return wrk.format("GET", paths[counter])
end

done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'WRKJSON{"requests":%d,"duration_us":%d,"bytes":%d,"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d,"p50_us":%d,"p90_us":%d,"p99_us":%d,"max_us":%d}\n',
    summary.requests, summary.duration, summary.bytes, e.connect, e.read, e.write, e.status, e.timeout,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max))
end
