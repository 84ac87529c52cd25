-- SPDX-License-Identifier: GPL-2.0-or-later
-- Top commands by CPU across hosts: user + system time of their tasks,
-- from pid records (a tgid record sums its threads again).  Tested by
-- tests/fleet/ (make test-fleet).
SELECT line->>'comm'                                   AS comm,
       count(*)                                        AS exits,
       count(DISTINCT host)                            AS hosts,
       sum((line->>'utime_us')::numeric
           + (line->>'stime_us')::numeric)             AS cpu_us
FROM exits
WHERE line->>'type' = 'pid'
GROUP BY 1
ORDER BY cpu_us DESC, comm
LIMIT 20;
