PREFIX nfo: <http://tracker.api.gnome.org/ontology/v3/nfo#>
INSERT DATA {
  <file:///a.txt> a nfo:FileDataObject ; nfo:fileName "a.txt" ; nfo:fileSize 12 .
  GRAPH <http://example.org/g> { <file:///a.txt> nie:title "A"@en . _:b ex:p (1 2) }
} ;
DELETE DATA { <file:///old.txt> nfo:fileName "old.txt" }
