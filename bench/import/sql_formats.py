"""SQL formats of the bench/import data set, for the sqlite3 shell (see gen_music.py).

write_flat():   the "physical limit": one table per class with only the columns used,
                explicit IDs (no IRI lookups), the same B-tree indexes as the ontology asks for
                and a contentless FTS5 table for the three full-text properties.
write_layout(): the same facts in Quarry's storage layout (store/schema/SCHEMA.md) written by
                hand: a row per superclass, the rdf:type table, graph columns, nrl:domainIndex
                mirror columns written directly (no triggers) and FTS5 with external content
                from fts_view, filled by one INSERT ... SELECT at the end. Real class tables
                have many more (NULL) columns; this is a lower bound for that layout.
Both run in one transaction, WAL, synchronous=NORMAL.
"""

def sql_value(value):
    if value is None:
        return "NULL"
    if isinstance(value, int):
        return str(value)
    return "'" + value.replace("'", "''") + "'"


def write_rows(out, table, columns, rows, chunk=500):
    """Multi-row INSERTs: the sqlite3 shell parses each statement, so fewer, larger statements
    come closest to what a C program with one prepared statement would cost."""
    head = "INSERT INTO %s(%s) VALUES\n" % (table, ", ".join(columns))
    for start in range(0, len(rows), chunk):
        block = rows[start:start + chunk]
        out.write(head + ",\n".join("(" + ", ".join(sql_value(v) for v in row) + ")"
                                    for row in block) + ";\n")


class IdMap:
    """Explicit Resource IDs: artists first, then albums, then pieces (as the RDF is written)."""

    def __init__(self, artists, albums, first=1):
        self.artist_base = first - 1
        self.album_base = self.artist_base + len(artists)
        self.piece_base = self.album_base + len(albums)

    def artist(self, k):
        return self.artist_base + k

    def album(self, k):
        return self.album_base + k

    def piece(self, k):
        return self.piece_base + k


def resource_rows(ids, artists, albums, pieces):
    rows = [(ids.artist(a["id"]), "urn:bench:artist:%d" % a["id"]) for a in artists]
    rows += [(ids.album(a["id"]), "urn:bench:album:%d" % a["id"]) for a in albums]
    rows += [(ids.piece(p["id"]), "urn:bench:piece:%d" % p["id"]) for p in pieces]
    return rows


FLAT_SCHEMA = """\
PRAGMA journal_mode=WAL;
PRAGMA synchronous=NORMAL;
CREATE TABLE Resource(ID INTEGER PRIMARY KEY, Uri TEXT UNIQUE);
CREATE TABLE Artist(ID INTEGER PRIMARY KEY, ArtistName TEXT);
CREATE INDEX Artist_ArtistName ON Artist(ArtistName);
CREATE TABLE Album(ID INTEGER PRIMARY KEY, Title TEXT);
CREATE INDEX Album_Title ON Album(Title);
CREATE TABLE AlbumArtist(ID INTEGER NOT NULL, Artist INTEGER NOT NULL, UNIQUE(ID, Artist));
CREATE TABLE MusicPiece(ID INTEGER PRIMARY KEY, Title TEXT, TrackNumber INTEGER,
  Duration INTEGER, ContentCreated TEXT, MusicAlbum INTEGER, Artist INTEGER, Genre TEXT,
  MimeType TEXT);
CREATE INDEX MusicPiece_Title ON MusicPiece(Title);
CREATE INDEX MusicPiece_MusicAlbum ON MusicPiece(MusicAlbum);
CREATE INDEX MusicPiece_MimeType ON MusicPiece(MimeType);
CREATE VIRTUAL TABLE fts5 USING fts5(title, genre, artistName, content='',
  tokenize='unicode61 remove_diacritics 2');
"""


def write_flat(out, data):
    artists, albums, pieces = data
    ids = IdMap(artists, albums)
    out.write(FLAT_SCHEMA)
    out.write("BEGIN;\n")
    write_rows(out, "Resource", ["ID", "Uri"], resource_rows(ids, *data))
    write_rows(out, "Artist", ["ID", "ArtistName"],
               [(ids.artist(a["id"]), a["name"]) for a in artists])
    write_rows(out, "Album", ["ID", "Title"], [(ids.album(a["id"]), a["title"]) for a in albums])
    write_rows(out, "AlbumArtist", ["ID", "Artist"],
               [(ids.album(a["id"]), ids.artist(a["artist"])) for a in albums])
    write_rows(out, "MusicPiece",
               ["ID", "Title", "TrackNumber", "Duration", "ContentCreated", "MusicAlbum",
                "Artist", "Genre", "MimeType"],
               [(ids.piece(p["id"]), p["title"], p["track"], p["duration"], p["created_stored"],
                 ids.album(p["album"]), ids.artist(p["artist"]), p["genre"], p["mime"])
                for p in pieces])
    fts = [(ids.artist(a["id"]), None, None, a["name"]) for a in artists]
    fts += [(ids.album(a["id"]), a["title"], None, None) for a in albums]
    fts += [(ids.piece(p["id"]), p["title"], p["genre"], None) for p in pieces]
    write_rows(out, "fts5", ["rowid", "title", "genre", "artistName"], fts)
    out.write("COMMIT;\n")



LAYOUT_CLASSES = ["rdfs:Resource", "nie:InformationElement", "nfo:Media", "nmm:MusicPiece",
                  "nfo:MediaList", "nmm:MusicAlbum", "nco:Role", "nmm:Artist"]
CLASS_IRIS = {
    "rdfs:Resource": "http://www.w3.org/2000/01/rdf-schema#Resource",
    "nie:InformationElement": "http://tracker.api.gnome.org/ontology/v3/nie#InformationElement",
    "nfo:Media": "http://tracker.api.gnome.org/ontology/v3/nfo#Media",
    "nmm:MusicPiece": "http://tracker.api.gnome.org/ontology/v3/nmm#MusicPiece",
    "nfo:MediaList": "http://tracker.api.gnome.org/ontology/v3/nfo#MediaList",
    "nmm:MusicAlbum": "http://tracker.api.gnome.org/ontology/v3/nmm#MusicAlbum",
    "nco:Role": "http://tracker.api.gnome.org/ontology/v3/nco#Role",
    "nmm:Artist": "http://tracker.api.gnome.org/ontology/v3/nmm#Artist",
}
# Explicit class plus every superclass, as the rdf:type table holds them.
TYPE_CLOSURE = {
    "piece": ["nmm:MusicPiece", "nfo:Media", "nie:InformationElement", "rdfs:Resource"],
    "album": ["nmm:MusicAlbum", "nfo:MediaList", "nie:InformationElement", "rdfs:Resource"],
    "artist": ["nmm:Artist", "nie:InformationElement", "nco:Role", "rdfs:Resource"],
}


def valued(*names):
    """Column definitions: each property value column followed by its graph column."""
    return "".join(', "%s", "%s:graph" INTEGER' % (n, n) for n in names)


LAYOUT_SCHEMA = """\
PRAGMA journal_mode=WAL;
PRAGMA synchronous=NORMAL;
CREATE TABLE Resource(ID INTEGER PRIMARY KEY, Uri TEXT UNIQUE);
CREATE TABLE Graph(ID INTEGER PRIMARY KEY);
CREATE TABLE "rdfs:Resource"(ID INTEGER PRIMARY KEY);
CREATE TABLE "rdfs:Resource_rdf:type"(ID INTEGER NOT NULL, "rdf:type" INTEGER NOT NULL,
  "rdf:type:graph" INTEGER NOT NULL DEFAULT 0, UNIQUE(ID, "rdf:type", "rdf:type:graph"));
CREATE TABLE "nie:InformationElement"(ID INTEGER PRIMARY KEY%(ie)s);
CREATE INDEX "nie:InformationElement_nie:mimeType" ON "nie:InformationElement"("nie:mimeType");
CREATE TABLE "nfo:Media"(ID INTEGER PRIMARY KEY%(media)s);
CREATE TABLE "nmm:MusicPiece"(ID INTEGER PRIMARY KEY%(piece)s, "nie:title");
CREATE INDEX "nmm:MusicPiece_nmm:musicAlbum" ON "nmm:MusicPiece"("nmm:musicAlbum");
CREATE INDEX "nmm:MusicPiece_nie:title" ON "nmm:MusicPiece"("nie:title");
CREATE TABLE "nfo:MediaList"(ID INTEGER PRIMARY KEY);
CREATE TABLE "nmm:MusicAlbum"(ID INTEGER PRIMARY KEY, "nie:title");
CREATE INDEX "nmm:MusicAlbum_nie:title" ON "nmm:MusicAlbum"("nie:title");
CREATE TABLE "nmm:MusicAlbum_nmm:albumArtist"(ID INTEGER NOT NULL,
  "nmm:albumArtist" INTEGER NOT NULL, "nmm:albumArtist:graph" INTEGER NOT NULL DEFAULT 0,
  UNIQUE(ID, "nmm:albumArtist", "nmm:albumArtist:graph"));
CREATE TABLE "nco:Role"(ID INTEGER PRIMARY KEY);
CREATE TABLE "nmm:Artist"(ID INTEGER PRIMARY KEY%(artist)s);
CREATE INDEX "nmm:Artist_nmm:artistName" ON "nmm:Artist"("nmm:artistName");
CREATE VIEW fts_view AS SELECT R.ID AS ID,
  (SELECT V."nie:title" FROM "nie:InformationElement" AS V WHERE V.ID = R.ID) AS "nie:title",
  (SELECT V."nfo:genre" FROM "nfo:Media" AS V WHERE V.ID = R.ID) AS "nfo:genre",
  (SELECT V."nmm:artistName" FROM "nmm:Artist" AS V WHERE V.ID = R.ID) AS "nmm:artistName"
  FROM "rdfs:Resource" AS R;
CREATE VIRTUAL TABLE fts5 USING fts5("nie:title", "nfo:genre", "nmm:artistName",
  content='fts_view', content_rowid='ID', tokenize='unicode61 remove_diacritics 2');
""" % {"ie": valued("nie:title", "nie:contentCreated", "nie:mimeType"),
       "media": valued("nfo:duration", "nfo:genre"),
       "piece": valued("nmm:trackNumber", "nmm:musicAlbum", "nmm:artist"),
       "artist": valued("nmm:artistName")}


def quoted(names):
    return ['"%s"' % n for n in names]


def write_layout_types(out, ids, artists, albums, pieces):
    """The ontology's class rows come first (IDs 1..8), then rdfs:Resource and rdf:type rows."""
    class_id = {name: k + 1 for k, name in enumerate(LAYOUT_CLASSES)}
    members = ([("artist", ids.artist(a["id"])) for a in artists]
               + [("album", ids.album(a["id"])) for a in albums]
               + [("piece", ids.piece(p["id"])) for p in pieces])
    write_rows(out, '"rdfs:Resource"', ["ID"], [(rid,) for _, rid in members])
    write_rows(out, '"rdfs:Resource_rdf:type"', ["ID", '"rdf:type"', '"rdf:type:graph"'],
               [(rid, class_id[c], 0) for kind, rid in members for c in TYPE_CLOSURE[kind]])
    for table in ["nfo:MediaList", "nco:Role"]:
        kind = "album" if table == "nfo:MediaList" else "artist"
        write_rows(out, '"%s"' % table, ["ID"], [(rid,) for k, rid in members if k == kind])


def write_layout_values(out, ids, artists, albums, pieces):
    ie_rows = [(ids.artist(a["id"]), None, None, None, None, None, None) for a in artists]
    ie_rows += [(ids.album(a["id"]), a["title"], 0, None, None, None, None) for a in albums]
    ie_rows += [(ids.piece(p["id"]), p["title"], 0, p["created_stored"], 0, p["mime"], 0)
                for p in pieces]
    write_rows(out, '"nie:InformationElement"', ["ID"] + quoted(
        ["nie:title", "nie:title:graph", "nie:contentCreated", "nie:contentCreated:graph",
         "nie:mimeType", "nie:mimeType:graph"]), ie_rows)
    write_rows(out, '"nfo:Media"', ["ID"] + quoted(
        ["nfo:duration", "nfo:duration:graph", "nfo:genre", "nfo:genre:graph"]),
        [(ids.piece(p["id"]), p["duration"], 0, p["genre"], 0) for p in pieces])
    write_rows(out, '"nmm:MusicPiece"', ["ID"] + quoted(
        ["nmm:trackNumber", "nmm:trackNumber:graph", "nmm:musicAlbum", "nmm:musicAlbum:graph",
         "nmm:artist", "nmm:artist:graph", "nie:title"]),
        [(ids.piece(p["id"]), p["track"], 0, ids.album(p["album"]), 0, ids.artist(p["artist"]),
          0, p["title"]) for p in pieces])
    write_rows(out, '"nmm:MusicAlbum"', ["ID", '"nie:title"'],
               [(ids.album(a["id"]), a["title"]) for a in albums])
    write_rows(out, '"nmm:MusicAlbum_nmm:albumArtist"', ["ID"] + quoted(
        ["nmm:albumArtist", "nmm:albumArtist:graph"]),
        [(ids.album(a["id"]), ids.artist(a["artist"]), 0) for a in albums])
    write_rows(out, '"nmm:Artist"', ["ID"] + quoted(["nmm:artistName", "nmm:artistName:graph"]),
               [(ids.artist(a["id"]), a["name"], 0) for a in artists])


def write_layout(out, data):
    artists, albums, pieces = data
    ids = IdMap(artists, albums, first=len(LAYOUT_CLASSES) + 1)
    out.write(LAYOUT_SCHEMA)
    write_rows(out, "Resource", ["ID", "Uri"],
               [(k + 1, CLASS_IRIS[name]) for k, name in enumerate(LAYOUT_CLASSES)])
    out.write("BEGIN;\n")
    write_rows(out, "Resource", ["ID", "Uri"], resource_rows(ids, *data))
    write_layout_types(out, ids, *data)
    write_layout_values(out, ids, *data)
    out.write('INSERT INTO fts5(rowid, "nie:title", "nfo:genre", "nmm:artistName")\n'
              '  SELECT ID, "nie:title", "nfo:genre", "nmm:artistName" FROM fts_view\n'
              '  WHERE coalesce("nie:title", "nfo:genre", "nmm:artistName") IS NOT NULL;\n')
    out.write("COMMIT;\n")
