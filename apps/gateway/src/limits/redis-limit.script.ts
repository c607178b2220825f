// The Lua script that takes from a key's buckets in Redis, atomically (Redis runs a script with
// nothing in between), so that every gateway replica sees one budget. The same arithmetic as
// token-bucket.ts and the same rule as limit.store.ts's decide(); the time is Redis' own, so
// replicas with skewed clocks still agree.
//
// KEYS: one hash per bucket, {level, at}; absent = full.
// ARGV: per key three values: limit per minute, cost (negative: a refund, never past the limit),
// gates (1/0).
// Returns: 1 or 0 (admitted), then each bucket's level after the take, as a string of full
// precision (Redis would truncate a Lua number to an integer).
// A bucket written expires when it would be full again, which is the same as absent.
export const TAKE_BUCKETS_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local levels = {}
local admitted = 1
for i = 1, #KEYS do
  local limit = tonumber(ARGV[i * 3 - 2])
  local cost = tonumber(ARGV[i * 3 - 1])
  local state = redis.call('HMGET', KEYS[i], 'level', 'at')
  local level = limit
  if state[1] then
    local elapsed = math.max(0, now - tonumber(state[2]))
    level = math.min(limit, tonumber(state[1]) + elapsed * limit / 60000)
  end
  levels[i] = level
  if ARGV[i * 3] == '1' and not (level > 0 and level >= cost) then admitted = 0 end
end
local out = { admitted }
for i = 1, #KEYS do
  local limit = tonumber(ARGV[i * 3 - 2])
  local cost = tonumber(ARGV[i * 3 - 1])
  if admitted == 1 and cost ~= 0 then
    levels[i] = math.min(limit, levels[i] - cost)
    redis.call('HSET', KEYS[i], 'level', string.format('%.17g', levels[i]), 'at', string.format('%d', now))
    redis.call('PEXPIRE', KEYS[i], math.ceil((limit - levels[i]) * 60000 / limit) + 1000)
  end
  out[i + 1] = string.format('%.17g', levels[i])
end
return out
`;
