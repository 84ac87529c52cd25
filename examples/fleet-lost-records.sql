-- SPDX-License-Identifier: GPL-2.0-or-later
-- Lost records per run: the numbers from 1 to the highest seq stored that
-- no row carries.  A record lost after the last one stored is no gap
-- here: compare max_seq with the run's last_seq (exitmon's summary, or
-- the exitmon_last_seq metric).  Tested by tests/fleet/ (make test-fleet).
SELECT run,
       min(host)                       AS host,
       count(*)                        AS rows,
       max(seq)                        AS max_seq,
       max(seq) - count(*)             AS missing,
       (SELECT string_agg(CASE WHEN g.lo = g.hi THEN g.lo::text
                               ELSE g.lo || '-' || g.hi END, ',' ORDER BY g.lo)
        FROM (SELECT prev + 1 AS lo, seq - 1 AS hi
              FROM (SELECT seq, lag(seq, 1, 0::numeric) OVER (ORDER BY seq) AS prev
                    FROM exits i WHERE i.run = e.run) s
              WHERE seq > prev + 1) g) AS gaps
FROM exits e
GROUP BY run
HAVING max(seq) > count(*)
ORDER BY host, run;
