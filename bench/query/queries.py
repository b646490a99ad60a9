#!/usr/bin/python3
"""The bench/query queries: each as SPARQL (run by Quarry and Tracker 3.4) and as the SQL a
person would write by hand for Quarry's tables (store/schema/SCHEMA.md), the "physical limit".

The SQL returns the same rows with the values as stored (IRIs from Resource.Uri, dateTimes in
the stored form): no SPARQL semantics, no value conversion, nothing a compiler could drop.

Usage: queries.py MANIFEST.json OUT.tsv   writes `name<TAB>sparql<TAB>sql` lines for
quarry_query_bench; tracker_query.py imports QUERIES and substitute() directly.
"""

import json
import sys

# Sorted titles: the IRI by a scalar sub-query, which SQLite evaluates only for the rows that
# survive ORDER BY ... LIMIT (a JOIN with Resource looks up every row before the sort: 5x
# slower for LIMIT 100 over 55,000 rows).
SORTED_SQL = ('SELECT (SELECT Uri FROM Resource WHERE ID = t.ID), t."nie:title" FROM %s AS t '
              'WHERE t."nie:title" IS NOT NULL ORDER BY t."nie:title"%s')

# name, what it measures, SPARQL, SQL. {folder} and {word} come from gen_files' manifest.
QUERIES = [
    ("a_artist_names", "seed (a): artists with a property function",
     "SELECT ?a nmm:artistName(?a) { ?a a nmm:Artist }",
     'SELECT r.Uri, a."nmm:artistName" FROM "nmm:Artist" AS a JOIN Resource AS r ON r.ID = a.ID'),
    ("b_file_mtimes", "seed (b): every file with its mtime",
     "SELECT ?f ?m { ?f a nfo:FileDataObject ; nfo:fileLastModified ?m }",
     'SELECT r.Uri, f."nfo:fileLastModified" FROM "nfo:FileDataObject" AS f '
     'JOIN Resource AS r ON r.ID = f.ID WHERE f."nfo:fileLastModified" IS NOT NULL'),
    ("c_fts_match", "seed (c): fts:match of one word",
     'SELECT ?r { ?r fts:match "{word}" }',
     "SELECT r.Uri FROM fts5 JOIN Resource AS r ON r.ID = fts5.rowid WHERE fts5 MATCH '{word}'"),
    ("d_plain_text", "seed (d): every nie:plainTextContent",
     "SELECT ?r ?t { ?r nie:plainTextContent ?t }",
     'SELECT r.Uri, i."nie:plainTextContent" FROM "nie:InformationElement" AS i '
     'JOIN Resource AS r ON r.ID = i.ID WHERE i."nie:plainTextContent" IS NOT NULL'),
    ("e_title_idx_100", "ORDER BY title, MusicPiece (domain index), LIMIT 100",
     "SELECT ?r ?t { ?r a nmm:MusicPiece ; nie:title ?t } ORDER BY ?t LIMIT 100",
     SORTED_SQL % ('"nmm:MusicPiece"', " LIMIT 100")),
    ("e_title_idx_all", "ORDER BY title, MusicPiece (domain index), all rows",
     "SELECT ?r ?t { ?r a nmm:MusicPiece ; nie:title ?t } ORDER BY ?t",
     SORTED_SQL % ('"nmm:MusicPiece"', "")),
    ("f_title_noidx_100", "ORDER BY title, nie:InformationElement (no index), LIMIT 100",
     "SELECT ?r ?t { ?r a nie:InformationElement ; nie:title ?t } ORDER BY ?t LIMIT 100",
     SORTED_SQL % ('"nie:InformationElement"', " LIMIT 100")),
    ("f_title_noidx_all", "ORDER BY title, nie:InformationElement (no index), all rows",
     "SELECT ?r ?t { ?r a nie:InformationElement ; nie:title ?t } ORDER BY ?t",
     SORTED_SQL % ('"nie:InformationElement"', "")),
    ("g_folder_mtimes", "miner: mtimes of the files of one folder",
     "SELECT ?f ?m { ?f nfo:belongsToContainer <{folder}> ; nfo:fileLastModified ?m }",
     'SELECT r.Uri, f."nfo:fileLastModified" FROM "nie:DataObject" AS d '
     'JOIN "nfo:FileDataObject" AS f ON f.ID = d.ID JOIN Resource AS r ON r.ID = d.ID '
     "WHERE d.\"nfo:belongsToContainer\" = (SELECT ID FROM Resource WHERE Uri = '{folder}')"),
]


def substitute(text, manifest):
    """Fills in {folder} and {word}; str.format would trip over the SPARQL braces."""
    return (text.replace("{folder}", manifest["target_folder"])
            .replace("{word}", manifest["fts_word"]))


def resolved(manifest, only=None):
    """[(name, description, sparql, sql)] with the manifest's values, optionally filtered."""
    out = []
    for name, what, sparql, sql in QUERIES:
        if only and name not in only:
            continue
        out.append((name, what, substitute(sparql, manifest), substitute(sql, manifest)))
    return out


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: queries.py MANIFEST.json OUT.tsv")
    with open(sys.argv[1], encoding="utf-8") as handle:
        manifest = json.load(handle)
    with open(sys.argv[2], "w", encoding="utf-8") as out:
        for name, _, sparql, sql in resolved(manifest):
            out.write("%s\t%s\t%s\n" % (name, sparql, sql))
    return 0


if __name__ == "__main__":
    sys.exit(main())
