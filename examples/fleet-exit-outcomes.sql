-- SPDX-License-Identifier: GPL-2.0-or-later
-- Exits by outcome per host per hour (of time_ns, when the collector
-- received the record; a replayed capture keeps its own times).
-- exitcode is as wait(2) gives it: low 7 bits the signal, 0x80 a core
-- dump, else the exit code in the next byte.  pid records only: the
-- kernel sends 0 in tgid records.  Tested by tests/fleet/.
SELECT host,
       date_trunc('hour', to_timestamp((line->>'time_ns')::numeric / 1e9))
                                                       AS hour,
       CASE WHEN (line->>'exitcode')::bigint & 127 <> 0 THEN
                 'signal ' || ((line->>'exitcode')::bigint & 127)
                 || CASE WHEN (line->>'exitcode')::bigint & 128 <> 0
                         THEN ' core' ELSE '' END
            ELSE 'exit ' || ((line->>'exitcode')::bigint >> 8)
       END                                             AS outcome,
       count(*)                                        AS exits
FROM exits
WHERE line->>'type' = 'pid'
GROUP BY 1, 2, 3
ORDER BY 1, 2, 3;
