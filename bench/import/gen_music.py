#!/usr/bin/python3
"""Writes the bench/import data set: N nmm:MusicPiece resources, their albums and artists.

The same seeded data comes out in four formats, so Quarry, Tracker 3.4 and plain sqlite3 load
exactly the same facts:

  sparql      one `INSERT DATA { ... }` with full PREFIX lines (the benchmark input)
  turtle      the same triples as Turtle (for `quarry import` and Tracker's deserialize)
  sql         the "physical limit": hand-written SQLite, one table per class holding only the
              columns used, explicit IDs, same B-tree indexes and a contentless FTS5 table
  sql-layout  the same data in Quarry's storage layout (store/schema/SCHEMA.md) written by hand:
              superclass tables, the rdf:type table, graph columns, domain-index mirrors and
              FTS5 with external content from fts_view

Each piece has rdf:type plus these 8 properties, all single-valued (nrl:maxCardinality 1) in
Tracker 3.4's nepomuk ontology and valid for nmm:MusicPiece (domain MusicPiece or a superclass):
  nie:title (string, full-text, domain-indexed on MusicPiece; some non-ASCII, a few escapes)
  nmm:trackNumber (integer)     nfo:duration (integer)
  nie:contentCreated (xsd:dateTime with a zone: Z or an offset)
  nmm:musicAlbum (-> nmm:MusicAlbum, indexed)   nmm:artist (-> nmm:Artist)
  nfo:genre (string, full-text)                 nie:mimeType (string, indexed)
Albums: rdf:type, nie:title, nmm:albumArtist (multi-valued in Tracker). Artists: rdf:type,
nmm:artistName (indexed, full-text). The triple count is printed on stderr and, with
--count-only, on stdout.

Output is byte-for-byte deterministic for a given --n and --seed. Run with /usr/bin/python3.
"""

import argparse
import datetime
import random
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree for the sibling import
import sql_formats  # noqa: E402  (sibling module: the sql and sql-layout formats)

PREFIXES = [
    ("rdf", "http://www.w3.org/1999/02/22-rdf-syntax-ns#"),
    ("xsd", "http://www.w3.org/2001/XMLSchema#"),
    ("nie", "http://tracker.api.gnome.org/ontology/v3/nie#"),
    ("nfo", "http://tracker.api.gnome.org/ontology/v3/nfo#"),
    ("nmm", "http://tracker.api.gnome.org/ontology/v3/nmm#"),
]

PIECE_PROPERTIES = 8
TRIPLES_PER_PIECE = 1 + PIECE_PROPERTIES
TRIPLES_PER_ALBUM = 3
TRIPLES_PER_ARTIST = 2

WORDS = ["love", "night", "river", "blue", "fire", "dream", "road", "light", "heart", "rain",
         "summer", "city", "ghost", "gold", "echo", "shadow", "silver", "storm", "wild", "home",
         "Don't", "stop", "morning", "ocean", "song", "dance", "moon", "star", "lost", "time"]
# Non-ASCII words (2-, 3- and 4-byte UTF-8) so both stores handle real tag text.
UNICODE_WORDS = ["Déjà", "Über", "Ñandú", "Ça", "Ærø", "Москва", "Ελλάδα", "東京", "음악",
                 "नमस्ते", "🎵"]
GENRES = ["Rock", "Pop", "Jazz", "Classical", "Electronic", "Hip-Hop", "Folk", "Blues",
          "Metal", "Reggae", "Soul", "Country", "Ambient", "Punk", "Latin", "Musique concrète"]
MIME_TYPES = ["audio/flac", "audio/mpeg", "audio/ogg", "audio/x-opus+ogg", "audio/mp4"]
ZONES_MINUTES = [0, 0, 120, 60, -300, -480, 540, 330]
EPOCH_START = int(datetime.datetime(1960, 1, 1, tzinfo=datetime.timezone.utc).timestamp())
EPOCH_END = int(datetime.datetime(2023, 12, 31, tzinfo=datetime.timezone.utc).timestamp())


def phrase(rng, n_words):
    """A title-like phrase; about one in eight carries a non-ASCII word."""
    words = [rng.choice(WORDS) for _ in range(n_words)]
    if rng.random() < 0.125:
        words[rng.randrange(n_words)] = rng.choice(UNICODE_WORDS)
    text = " ".join(words)
    return text[:1].upper() + text[1:]


def random_datetime(rng):
    """Returns (lexical xsd:dateTime with zone, Quarry's stored form per SCHEMA.md)."""
    utc = datetime.datetime.fromtimestamp(rng.randrange(EPOCH_START, EPOCH_END),
                                          datetime.timezone.utc)
    minutes = rng.choice(ZONES_MINUTES)
    if minutes == 0:
        return utc.strftime("%Y-%m-%dT%H:%M:%SZ"), utc.strftime("%Y-%m-%dT%H:%M:%S.000000Z")
    local = utc.astimezone(datetime.timezone(datetime.timedelta(minutes=minutes)))
    sign = "+" if minutes > 0 else "-"
    zone = "%s%02d:%02d" % (sign, abs(minutes) // 60, abs(minutes) % 60)
    return (local.strftime("%Y-%m-%dT%H:%M:%S") + zone,
            utc.strftime("%Y-%m-%dT%H:%M:%S.000000Z") + zone)


def make_data(n, seed):
    """Builds (artists, albums, pieces); albums hold 6..14 tracks, ~n/10 albums, ~n/50 artists."""
    rng = random.Random(seed)
    artists = []
    for k in range(1, max(1, n // 50) + 1):
        artists.append({"id": k, "name": "%s %d" % (phrase(rng, rng.randint(1, 2)), k)})
    albums, pieces = [], []
    while len(pieces) < n:
        album = {"id": len(albums) + 1, "title": phrase(rng, rng.randint(1, 3)),
                 "artist": rng.randrange(len(artists)) + 1}
        albums.append(album)
        for track in range(1, min(rng.randint(6, 14), n - len(pieces)) + 1):
            pieces.append(make_piece(rng, len(pieces) + 1, album, track, len(artists)))
    return artists, albums, pieces


def make_piece(rng, piece_id, album, track, n_artists):
    title = phrase(rng, rng.randint(1, 4))
    if piece_id % 997 == 0:
        title += ' "live" \\ remix'  # exercises string escapes in every format
    created, created_stored = random_datetime(rng)
    artist = album["artist"] if rng.random() < 0.8 else rng.randrange(n_artists) + 1
    return {"id": piece_id, "title": title, "track": track, "duration": rng.randint(60, 900),
            "created": created, "created_stored": created_stored, "album": album["id"],
            "artist": artist, "genre": rng.choice(GENRES), "mime": rng.choice(MIME_TYPES)}


def triple_count(artists, albums, pieces):
    return (TRIPLES_PER_ARTIST * len(artists) + TRIPLES_PER_ALBUM * len(albums)
            + TRIPLES_PER_PIECE * len(pieces))


def rdf_string(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def rdf_statements(artists, albums, pieces):
    """Yields one Turtle/SPARQL statement block per resource (same text in both syntaxes)."""
    for a in artists:
        yield "<urn:bench:artist:%d> a nmm:Artist ; nmm:artistName %s ." % (
            a["id"], rdf_string(a["name"]))
    for a in albums:
        yield ("<urn:bench:album:%d> a nmm:MusicAlbum ; nie:title %s ; "
               "nmm:albumArtist <urn:bench:artist:%d> .") % (a["id"], rdf_string(a["title"]),
                                                              a["artist"])
    for p in pieces:
        yield ("<urn:bench:piece:%d> a nmm:MusicPiece ; nie:title %s ; nmm:trackNumber %d ; "
               "nfo:duration %d ; nie:contentCreated \"%s\"^^xsd:dateTime ; "
               "nmm:musicAlbum <urn:bench:album:%d> ; nmm:artist <urn:bench:artist:%d> ; "
               "nfo:genre %s ; nie:mimeType %s .") % (
            p["id"], rdf_string(p["title"]), p["track"], p["duration"], p["created"],
            p["album"], p["artist"], rdf_string(p["genre"]), rdf_string(p["mime"]))


def header(data, seed):
    """First line of every file, a comment in all formats: the loaders read n and triples here."""
    artists, albums, pieces = data
    return "gen_music n=%d artists=%d albums=%d triples=%d seed=%d" % (
        len(pieces), len(artists), len(albums), triple_count(*data), seed)


def write_sparql(out, data):
    for prefix, iri in PREFIXES:
        out.write("PREFIX %s: <%s>\n" % (prefix, iri))
    out.write("INSERT DATA {\n")
    for statement in rdf_statements(*data):
        out.write(statement + "\n")
    out.write("}\n")


def write_turtle(out, data):
    for prefix, iri in PREFIXES:
        out.write("@prefix %s: <%s> .\n" % (prefix, iri))
    for statement in rdf_statements(*data):
        out.write(statement + "\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=100000, help="music pieces (default 100000)")
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    parser.add_argument("--format", default="sparql",
                        choices=["sparql", "turtle", "sql", "sql-layout"])
    parser.add_argument("--output", "-o", help="output file (default stdout)")
    parser.add_argument("--count-only", action="store_true",
                        help="print the triple count and write nothing")
    args = parser.parse_args()
    if args.n < 1:
        parser.error("--n must be at least 1")
    data = make_data(args.n, args.seed)
    triples = triple_count(*data)
    if args.count_only:
        print(triples)
        return 0
    comment = "-- " if args.format.startswith("sql") else "# "
    writers = {"sparql": write_sparql, "turtle": write_turtle, "sql": sql_formats.write_flat,
               "sql-layout": sql_formats.write_layout}
    out = open(args.output, "w", encoding="utf-8", newline="\n") if args.output else sys.stdout
    try:
        out.write(comment + header(data, args.seed) + "\n")
        writers[args.format](out, data)
    finally:
        if out is not sys.stdout:
            out.close()
    print("%s format=%s" % (header(data, args.seed), args.format), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
