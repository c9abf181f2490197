-- The plan catalog. Prices in IDR per month; a call beyond the monthly quota spends 1 credit.
-- rate_limit_per_minute must equal the `simple.limit` of the plan's rate-limit binding in wrangler.toml
-- (RL_FREE, RL_STARTER, RL_PRO, RL_BUSINESS); a test checks it. `internal` is not sold: admins grant
-- it to the operator's own services (and the local benchmark user); it is metered but not limited.
INSERT INTO plans (id, name, price_idr, monthly_quota, rate_limit_per_minute, features, sort, is_public) VALUES
('free', 'Free', 0, 1000, 30, '["All regional data endpoints and search","MCP tool surface","BMKG weather and earthquakes","Pay-as-you-go credits beyond the quota"]', 0, 1),
('starter', 'Starter', 49000, 50000, 120, '["Everything in Free","50,000 calls per month","120 calls per minute","Email support"]', 1, 1),
('pro', 'Pro', 199000, 500000, 600, '["Everything in Starter","500,000 calls per month","600 calls per minute","Priority support"]', 2, 1),
('business', 'Business', 799000, 3000000, 1800, '["Everything in Pro","3,000,000 calls per month","1,800 calls per minute","Invoice (faktur) on request"]', 3, 1),
('internal', 'Internal', 0, 1000000000, NULL, '["Operator services and benchmarks: metered, not limited"]', 99, 0);
