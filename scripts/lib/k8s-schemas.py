"""Writes self-contained copies of the Kubernetes JSON schemas packaged by kubernetes-validate.

The packaged schemas point at one shared file ('/api/_definitions.json#/$defs/...', whose
entries refer to each other as '#/$defs/...' under a remote $id), which kubeconform (Draft 4,
one resource per schema) cannot follow. Each copy carries the definitions
it reaches under 'definitions', referenced as '#/definitions/...'.
usage: k8s-schemas.py <packaged version dir> <output dir>
"""
import json
import os
import sys

source, target = sys.argv[1], sys.argv[2]
PREFIXES = ('/api/_definitions.json#/$defs/', '#/$defs/')
with open(os.path.join(source, '_definitions.json')) as f:
    defs = json.load(f)['$defs']


def rewrite(node, reached):
    if isinstance(node, dict):
        out = {}
        for key, value in node.items():
            if key == '$ref' and isinstance(value, str) and value.startswith(PREFIXES):
                name = value.split('/$defs/', 1)[1]
                reached.append(name)
                out[key] = '#/definitions/' + name
            elif key in ('$id', '$schema') and isinstance(value, str):
                continue  # Draft 4 would resolve references against a remote $id
            else:
                out[key] = rewrite(value, reached)
        return out
    if isinstance(node, list):
        return [rewrite(v, reached) for v in node]
    return node


os.makedirs(target, exist_ok=True)
for name in os.listdir(source):
    if not name.endswith('.json') or name == '_definitions.json':
        continue
    with open(os.path.join(source, name)) as f:
        schema = json.load(f)
    pending = []
    schema = rewrite(schema, pending)
    included = {}
    while pending:
        ref = pending.pop()
        if ref in included:
            continue
        included[ref] = rewrite(defs[ref], pending)
    if included:
        schema['definitions'] = included
    with open(os.path.join(target, name), 'w') as f:
        json.dump(schema, f)
