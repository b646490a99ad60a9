INSERT OR REPLACE { ?r nie:title "new" } WHERE { ?r a nfo:Document } ;
INSERT OR REPLACE DATA { <urn:a> nie:title "x" } ;
INSERT SILENT { <urn:b> nie:title ~title } ;
DELETE { <urn:c> nie:title ?t } INSERT OR REPLACE { <urn:c> nie:title "d" } WHERE { <urn:c> nie:title ?t }
