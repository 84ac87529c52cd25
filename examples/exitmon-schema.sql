-- SPDX-License-Identifier: GPL-2.0-or-later
-- exitmon records from many hosts, each kept once (PostgreSQL 12 or later).
-- Tested verbatim by tests/fleet/ (make test-fleet).
--
-- Every record names its run (32 hex digits, one per start of exitmon)
-- and its seq (1, 2, 3 ... in that run): (run, seq) is the key, so a line
-- sent twice (a shipper that read its file again) is stored once, and a
-- number missing from 1 to max(seq) is a record lost on the way, or one
-- exitmon counted unwritten (see examples/fleet-lost-records.sql).
-- The line is kept whole as jsonb, whose numbers are numeric: a u64 such
-- as 18446744073709551615 stays exact.  Read a column as
-- (line->>'utime_us')::numeric.

CREATE TABLE exits (
	run      text        NOT NULL,
	seq      numeric(20) NOT NULL,
	host     text        NOT NULL,
	line     jsonb       NOT NULL,
	received timestamptz NOT NULL DEFAULT now(),
	UNIQUE (run, seq)
);

-- What exitmon_ingest() did not insert, per host: lines already stored
-- (duplicates) and lines that are no record (rejected, kept for a look).
CREATE TABLE exits_duplicates (
	host       text   PRIMARY KEY,
	duplicates bigint NOT NULL
);
CREATE TABLE exits_rejected (
	host     text        NOT NULL,
	line     text        NOT NULL,
	why      text        NOT NULL,
	received timestamptz NOT NULL DEFAULT now()
);

-- One line from a host, as the hub's rsyslog sends it
-- (examples/rsyslog-hub.conf): inserted once, a duplicate counted, a line
-- that is not a JSON object with a string run and a numeric seq rejected,
-- never an error (which would stop the shipper's queue).
CREATE FUNCTION exitmon_ingest(p_host text, p_line text) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
DECLARE
	j jsonb;
	n bigint;
BEGIN
	BEGIN
		j := p_line::jsonb;
	EXCEPTION WHEN others THEN
		INSERT INTO exits_rejected (host, line, why)
		VALUES (p_host, p_line, SQLERRM);
		RETURN;
	END;
	IF jsonb_typeof(j) IS DISTINCT FROM 'object'
	   OR jsonb_typeof(j->'run') IS DISTINCT FROM 'string'
	   OR jsonb_typeof(j->'seq') IS DISTINCT FROM 'number' THEN
		INSERT INTO exits_rejected (host, line, why)
		VALUES (p_host, p_line, 'not a record with run and seq');
		RETURN;
	END IF;
	INSERT INTO exits (run, seq, host, line)
	VALUES (j->>'run', (j->>'seq')::numeric, p_host, j)
	ON CONFLICT (run, seq) DO NOTHING;
	GET DIAGNOSTICS n = ROW_COUNT;
	IF n = 0 THEN
		INSERT INTO exits_duplicates AS d (host, duplicates)
		VALUES (p_host, 1)
		ON CONFLICT (host) DO UPDATE SET duplicates = d.duplicates + 1;
	END IF;
END
$$;

-- The hub's rsyslog logs in as rsyslog and may only call the function.
CREATE ROLE rsyslog LOGIN;
REVOKE ALL ON FUNCTION exitmon_ingest(text, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION exitmon_ingest(text, text) TO rsyslog;
