// The Redis side of the rate limiter: gcra() of gcra.ts as one Lua script, so the read, the
// decision and the write are atomic for every gateway instance. The clock is Redis's own
// (TIME), never the caller's: instances with skewed clocks still share one bucket correctly.
// Keep it in step with gcra.ts; tests/distributed/rate-limit-shared.test.ts runs both on the
// same random sequences (through the optional ARGV[3], a fixed "now" that only tests pass).
//
// KEYS[1]  the bucket
// ARGV[1]  interval in microseconds, ARGV[2] burst, ARGV[3] tokens wanted (a lease: up to that
//          many, as many as the bucket holds), ARGV[4] (tests only) now in microseconds
// returns  { allowed (0|1), remaining, retry_after_us, next_token_us, granted }

export const GCRA_LUA = `
local now
if ARGV[4] then
  now = tonumber(ARGV[4])
else
  local time = redis.call('TIME')
  now = tonumber(time[1]) * 1000000 + tonumber(time[2])
end
local interval = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local want = tonumber(ARGV[3])
local tat = tonumber(redis.call('GET', KEYS[1]))
if tat == nil or tat < now then tat = now end
local available = math.floor((now - tat + burst * interval) / interval)
if available < 1 then
  local allow_at = tat + interval - burst * interval
  return { 0, 0, allow_at - now, allow_at - now, 0 }
end
local granted = math.min(want, available)
local new_tat = tat + granted * interval
local credit = now - (new_tat - burst * interval)
-- %.0f, not tostring: Lua prints doubles with 14 significant digits, and a TAT in
-- microseconds has 16. The key expires once the bucket would be full again anyway.
redis.call('SET', KEYS[1], string.format('%.0f', new_tat), 'PX', math.ceil((new_tat - now) / 1000) + 1)
return { 1, math.floor(credit / interval), 0, interval - math.fmod(credit, interval), granted }
`;
