WITH <http://example.org/g>
DELETE { ?f nie:title ?old }
INSERT { ?f nie:title ?new . GRAPH ex:log { [] ex:changed ?f } }
USING <http://example.org/g> USING NAMED <http://example.org/h>
WHERE { ?f nie:title ?old BIND (UCASE(?old) AS ?new) } ;
DELETE WHERE { ?f ex:temp ?x . GRAPH ?g { ?f ex:temp2 ?y } } ;
INSERT { ?f ex:seen true } WHERE { ?f a ex:File }
