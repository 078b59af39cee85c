"""A responder's afternoon script for a cross-request KV-cache leak, written without kvscope.

    python responder.py INCIDENT_DIR OUT_DIR [--threads N]

What it does, in DuckDB and a little Python, the way an incident responder would approach the logs:

1. reads the LiteLLM gateway JSON lines (plain or gzipped) and the OTLP/JSON GenAI spans into one
   table of requests: id, engine rid, tenant, start and end, status, prompt tokens, prompt text,
   reply text;
2. reads the SGLang server logs line by line and pulls the per-request timing lines
   (`Req Time Stats(rid=.., bootstrap_room=.., input len=.., type=..)`) and the scheduler's
   over-length rejections (`Input length (N tokens) exceeds the maximum allowed length (M tokens)`)
   out with regexp_extract;
3. over-length prompts answered 200: a decode node reserved more tokens than the engine's limit and
   the gateway says success, or the prefill side of the same bootstrap room computed one token;
   the exposure window runs from the first such answer on a decode node;
4. hashes every reply's word 8-grams (numpy) and joins them against the 8-grams of earlier prompts
   and replies of other tenants, drops 8-grams held by three or more tenants (boilerplate, popular
   questions), and keeps runs of 16 or more consecutive words;
5. looks for identifiers (e-mail, UUID, API key, IBAN, phone, canary marker) of other tenants'
   earlier prompts in each reply;
6. scores each reply: confirmed with a run of 32+ words or an identifier, probable with 16+ words,
   on a decode node whose exposure window had opened; prints the counts and writes findings.csv.

Prompt text never goes to the terminal; findings.csv names requests, tenants and lengths only.
"""
import argparse
import csv
import glob
import os
import re
import sys
import time

import duckdb
import numpy as np

GRAM = 8
MIN_RUN_WORDS = 16
CONFIRMED_RUN_WORDS = 32
COMMON_TENANTS = 3
WORD = re.compile(r"\w+")
IDENTIFIER = (r"[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+"
              r"|[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"
              r"|\b(?:sk|pk|rk|ak|key|tok)[-_][A-Za-z0-9_-]{16,}"
              r"|\b[A-Z]{2}[0-9]{2}(?: ?[A-Z0-9]{4}){2,7}"
              r"|\+?[0-9][0-9 ().-]{8,}[0-9]"
              r"|KVCANARY-[0-9A-F]{16}")


def files(incident, folder, suffix):
    """The folder's files with that suffix, plain or compressed as rotated logs are."""
    return sorted(p for ext in ("", ".gz", ".zst") for p in glob.glob(os.path.join(incident, folder, "*" + suffix + ext)))


def json_lines(columns):
    """DuckDB's reader of JSON lines with the columns wanted; records may be megabytes (long prompts)."""
    return f"read_json(?, format = 'newline_delimited', maximum_object_size = 268435456, columns = {columns})"


def load_gateway(con, incident):
    paths = files(incident, "gateway", ".jsonl")
    if not paths:
        con.execute("CREATE TABLE gateway (id VARCHAR, rid VARCHAR, tenant VARCHAR, t_start DOUBLE, t_end DOUBLE, "
                    "ok BOOLEAN, prompt_tokens BIGINT, prompt VARCHAR, reply VARCHAR)")
        return
    columns = ("{id: 'VARCHAR', status: 'VARCHAR', startTime: 'DOUBLE', endTime: 'DOUBLE', prompt_tokens: 'BIGINT', "
               "end_user: 'VARCHAR', messages: 'JSON', response: 'JSON', "
               "metadata: 'STRUCT(user_api_key_org_id VARCHAR, user_api_key_team_id VARCHAR)'}")
    con.execute(f"""
        CREATE TABLE gateway AS
        SELECT id,
               replace(coalesce(json_extract_string(response, '$.id'), id), 'chatcmpl-', '') AS rid,
               coalesce(metadata.user_api_key_org_id, metadata.user_api_key_team_id, end_user) AS tenant,
               startTime AS t_start, endTime AS t_end,
               status = 'success' AS ok,
               prompt_tokens,
               array_to_string(json_extract_string(messages, '$[*].content'), chr(10)) AS prompt,
               json_extract_string(response, '$.choices[0].message.content') AS reply
        FROM {json_lines(columns)}
    """, [paths])


def load_traces(con, incident):
    paths = files(incident, "traces", ".jsonl")
    if not paths:
        con.execute("CREATE TABLE spans AS SELECT * FROM gateway WHERE false")
        return
    # One OTLP export a line: resourceSpans[].scopeSpans[].spans[], attributes as key/value lists.
    con.execute("""
        CREATE TABLE spans AS
        WITH s AS (
          SELECT unnest(json_extract(resourceSpans, '$[*].scopeSpans[*].spans[*]')) AS span
          FROM """ + json_lines("{resourceSpans: 'JSON'}") + """
        ), a AS (
          SELECT span, map_from_entries(list_transform(json_extract(span, '$.attributes[*]'),
                   x -> {k: json_extract_string(x, '$.key'),
                         v: coalesce(json_extract_string(x, '$.value.stringValue'),
                                     json_extract_string(x, '$.value.intValue'))})) AS m
          FROM s
        )
        SELECT coalesce(m['gen_ai.response.id'], json_extract_string(span, '$.spanId')) AS id,
               replace(m['gen_ai.response.id'], 'chatcmpl-', '') AS rid,
               m['tenant.id'] AS tenant,
               json_extract_string(span, '$.startTimeUnixNano')::HUGEINT / 1e9 AS t_start,
               json_extract_string(span, '$.endTimeUnixNano')::HUGEINT / 1e9 AS t_end,
               m['gen_ai.response.id'] IS NOT NULL AS ok,
               m['gen_ai.usage.prompt_tokens']::BIGINT AS prompt_tokens,
               array_to_string(list_transform(
                   list_filter(map_keys(m), k -> k LIKE 'gen_ai.prompt.%.content'), k -> m[k]), chr(10)) AS prompt,
               m['gen_ai.completion.0.content'] AS reply
        FROM a
    """, [paths])


def load_engine(con, incident):
    paths = files(incident, "engine", ".log")
    con.execute("""
        CREATE TABLE lines AS
        SELECT regexp_extract(filename, 'sglang-(\\w+)-(\\w+)\\.log', 1) AS role,
               regexp_extract(filename, 'sglang-(\\w+-\\w+)\\.log', 1) AS node, line
        FROM read_csv(?, columns = {line: 'VARCHAR'}, delim = '\\x01', quote = '', escape = '',
                      header = false, filename = true, max_line_size = 67108864)
        WHERE line LIKE '%Req Time Stats(%' OR line LIKE '%exceeds the maximum allowed length%'
              OR line LIKE '%server_args=%'
    """, [paths])
    con.execute("""
        CREATE TABLE stats AS
        SELECT node, role,
               strptime(regexp_extract(line, '^\\[([0-9-]+ [0-9:]+)', 1), '%Y-%m-%d %H:%M:%S') AS at,
               regexp_extract(line, 'rid=(\\w+)', 1) AS rid,
               regexp_extract(line, 'bootstrap_room=(\\d+)', 1) AS room,
               regexp_extract(line, 'input len=(\\d+)', 1)::BIGINT AS input_len
        FROM lines WHERE line LIKE '%Req Time Stats(%'
    """)
    con.execute("""
        CREATE TABLE limits AS
        SELECT node, max(regexp_extract(line, 'maximum allowed length \\((\\d+) tokens', 1)::BIGINT) AS max_input
        FROM lines WHERE line LIKE '%exceeds the maximum allowed length%' GROUP BY node
        UNION ALL
        SELECT node, max(regexp_extract(line, 'context_length=(\\d+)', 1)::BIGINT)
        FROM lines WHERE line LIKE '%server_args=%' GROUP BY node
    """)


def over_length(con):
    # The smallest limit any node states is the limit no prompt should pass.
    con.execute("""
        CREATE TABLE over AS
        SELECT r.id, r.tenant, r.t_end, d.node AS decode_node, d.input_len, p.input_len AS prefill_len
        FROM requests r
        JOIN stats d ON d.rid = r.rid AND d.role = 'decode'
        LEFT JOIN stats p ON p.room = d.room AND p.role = 'prefill'
        WHERE r.ok AND (d.input_len > (SELECT min(max_input) FROM limits) OR p.input_len = 1)
    """)
    con.execute("""
        CREATE TABLE windows AS
        SELECT decode_node, min(t_end) AS opened, count(*) AS over_length FROM over GROUP BY decode_node
    """)


def gram_hashes(words, vocab):
    """Each position's 8-gram as one 64-bit number: the words' ids in a polynomial (wrapping)."""
    if len(words) < GRAM:
        return np.empty(0, dtype=np.uint64)
    ids = np.fromiter((vocab.setdefault(w, len(vocab) + 1) for w in words), dtype=np.uint64, count=len(words))
    n = len(ids) - GRAM + 1
    h = np.zeros(n, dtype=np.uint64)
    with np.errstate(over="ignore"):
        for k in range(GRAM):
            h = h * np.uint64(0x9E3779B97F4A7C15) + ids[k:k + n]
    return h


def overlaps(con):
    reqs = con.execute("SELECT id, tenant, t_start, t_end, ok, prompt, reply FROM requests").fetchall()
    vocab = {}
    texts = []  # (request index, gram hashes) of every prompt and of every reply answered
    replies = []  # (request index, gram hashes)
    for i, (_, _, _, _, ok, prompt, reply) in enumerate(reqs):
        if prompt:
            texts.append((i, gram_hashes(WORD.findall(prompt.lower()), vocab)))
        if reply and ok:
            h = gram_hashes(WORD.findall(reply.lower()), vocab)
            texts.append((i, h))
            replies.append((i, h))
    wanted = np.unique(np.concatenate([h for _, h in replies])) if replies else np.empty(0, dtype=np.uint64)
    # Which texts hold each of the replies' 8-grams, once per text: pasted manuals repeat the same
    # 8-grams thousands of times in one prompt.
    holders = {}
    for i, h in texts:
        if not len(wanted) or not len(h):
            continue
        at = np.minimum(np.searchsorted(wanted, h), len(wanted) - 1)  # wanted is sorted (np.unique)
        for g in np.unique(h[wanted[at] == h]).tolist():
            holders.setdefault(g, set()).add(i)
    common = {g for g, who in holders.items() if len({reqs[i][1] for i in who}) >= COMMON_TENANTS}
    runs = []
    for r, h in replies:
        tenant, t_end = reqs[r][1], reqs[r][3]
        hits = {}
        for pos, g in enumerate(h.tolist()):
            if g in common or g not in holders:
                continue
            for s in holders[g]:
                if s != r and reqs[s][1] != tenant and reqs[s][2] < t_end:
                    hits.setdefault(s, []).append(pos)
        for s, positions in hits.items():
            start = prev = positions[0]
            for pos in positions[1:] + [None]:
                if pos is not None and pos == prev + 1:
                    prev = pos
                    continue
                words = prev - start + GRAM
                if words >= MIN_RUN_WORDS:
                    runs.append((reqs[r][0], tenant, reqs[s][0], reqs[s][1], words))
                if pos is not None:
                    start = prev = pos
    con.execute("CREATE TABLE runs (id VARCHAR, tenant VARCHAR, source VARCHAR, source_tenant VARCHAR, words BIGINT)")
    if runs:
        con.executemany("INSERT INTO runs VALUES (?, ?, ?, ?, ?)", runs)


def identifiers(con):
    con.execute(f"""
        CREATE TABLE ids AS
        WITH r AS (SELECT DISTINCT id, tenant, t_end, unnest(regexp_extract_all(reply, '{IDENTIFIER}')) AS ident
                   FROM requests WHERE ok AND reply IS NOT NULL),
             p AS (SELECT DISTINCT id, tenant, t_start, unnest(regexp_extract_all(prompt, '{IDENTIFIER}')) AS ident
                   FROM requests WHERE prompt IS NOT NULL)
        SELECT DISTINCT r.id, r.tenant, p.id AS source, p.tenant AS source_tenant, r.ident
        FROM r JOIN p ON p.ident = r.ident AND p.tenant <> r.tenant AND p.t_start < r.t_end
    """)


def score(con, out):
    rows = con.execute(f"""
        WITH best AS (
          SELECT id, max(words) AS words, string_agg(DISTINCT source_tenant, ';') AS victims,
                 count(DISTINCT source) AS sources
          FROM runs GROUP BY id),
        idents AS (SELECT id, count(DISTINCT ident) AS identifiers FROM ids GROUP BY id),
        cand AS (SELECT coalesce(b.id, i.id) AS id, coalesce(b.words, 0) AS words,
                        coalesce(i.identifiers, 0) AS identifiers, b.victims, coalesce(b.sources, 0) AS sources
                 FROM best b FULL JOIN idents i ON i.id = b.id)
        SELECT c.id, r.tenant, d.node, strftime(to_timestamp(r.t_end), '%Y-%m-%dT%H:%M:%SZ') AS answered, c.words, c.identifiers, c.sources,
               c.victims,
               CASE WHEN w.opened IS NULL OR r.t_end < w.opened THEN 'outside-window'
                    WHEN c.words >= {CONFIRMED_RUN_WORDS} OR c.identifiers > 0 THEN 'confirmed'
                    ELSE 'probable' END AS verdict
        FROM cand c JOIN requests r ON r.id = c.id
        LEFT JOIN stats d ON d.rid = r.rid AND d.role = 'decode'
        LEFT JOIN windows w ON w.decode_node = d.node
        ORDER BY answered
    """).fetchall()
    with open(os.path.join(out, "findings.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["request", "tenant", "decode_node", "answered", "longest_run_words", "identifiers",
                    "sources", "victim_tenants", "verdict"])
        w.writerows(rows)
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("incident")
    ap.add_argument("out")
    ap.add_argument("--threads", type=int, default=os.cpu_count())
    ap.add_argument("--verbose", action="store_true", help="print each stage's time as it ends")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    con = duckdb.connect(os.path.join(a.out, "responder.duckdb"))
    con.execute(f"SET threads = {a.threads}")
    con.execute("SET enable_progress_bar = false")
    con.execute(f"SET temp_directory = '{os.path.join(a.out, 'tmp')}'")
    t0 = time.time()
    stages = []

    def stage(name, fn, *args):
        t = time.time()
        fn(con, *args)
        stages.append((name, time.time() - t))
        if a.verbose:
            print(f"{name} {stages[-1][1]:.1f}s", file=sys.stderr, flush=True)

    stage("gateway", load_gateway, a.incident)
    stage("traces", load_traces, a.incident)
    con.execute("CREATE TABLE requests AS SELECT * FROM gateway UNION ALL BY NAME SELECT * FROM spans")
    stage("engine", load_engine, a.incident)
    stage("over-length", over_length)
    stage("8-grams", overlaps)
    stage("identifiers", identifiers)
    rows = []
    stage("score", lambda c: rows.extend(score(c, a.out)))

    n_req = con.execute("SELECT count(*) FROM requests").fetchone()[0]
    n_over, first = con.execute(
        "SELECT count(*), strftime(to_timestamp(min(t_end)), '%Y-%m-%dT%H:%M:%SZ') FROM over").fetchone()
    verdicts = {}
    for r in rows:
        verdicts[r[-1]] = verdicts.get(r[-1], 0) + 1
    print(f"requests {n_req}, over-length answered 200: {n_over} (first {first}), "
          f"windows on {con.execute('SELECT count(*) FROM windows').fetchone()[0]} decode nodes")
    print("replies: " + ", ".join(f"{v} {k}" for k, v in sorted(verdicts.items())) if verdicts else "replies: none")
    print("stages: " + ", ".join(f"{n} {s:.1f}s" for n, s in stages) + f"; total {time.time() - t0:.1f}s",
          file=sys.stderr)
    con.close()


if __name__ == "__main__":
    main()
