LOAD SILENT <http://example.org/data.ttl> INTO GRAPH <http://example.org/g> ;
CLEAR GRAPH <http://example.org/g> ; CLEAR DEFAULT ; CLEAR NAMED ; CLEAR ALL ;
DROP SILENT GRAPH <http://example.org/g> ; DROP ALL ;
CREATE GRAPH <http://example.org/new> ;
ADD <http://example.org/a> TO DEFAULT ; MOVE SILENT DEFAULT TO GRAPH <http://example.org/b> ;
COPY GRAPH <http://example.org/a> TO <http://example.org/c>
