#!/bin/sh
# Regenerates the test-only TLS fixtures under test/fixtures/tls: a CA, and a certificate for localhost
# (DNS:localhost, IP:127.0.0.1, IP:::1) signed by it, valid for 20 years. Tests trust the CA through
# NODE_EXTRA_CA_CERTS (see package.json's "test" script). Run from the repository root.
set -eu
dir=test/fixtures/tls
days=7300
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

openssl req -x509 -newkey rsa:2048 -nodes -sha256 -days "$days" \
  -subj "/CN=mf-distribution test CA" \
  -addext "basicConstraints=critical,CA:TRUE,pathlen:0" \
  -addext "keyUsage=critical,keyCertSign,cRLSign" \
  -keyout "$work/ca-key.pem" -out "$dir/ca.pem"

openssl req -newkey rsa:2048 -nodes -sha256 -subj "/CN=localhost" \
  -keyout "$dir/localhost-key.pem" -out "$work/localhost.csr"

cat > "$work/ext.cnf" <<'EXT'
basicConstraints=critical,CA:FALSE
keyUsage=critical,digitalSignature,keyEncipherment
extendedKeyUsage=serverAuth
subjectAltName=DNS:localhost,IP:127.0.0.1,IP:::1
EXT

openssl x509 -req -sha256 -days "$days" -in "$work/localhost.csr" \
  -CA "$dir/ca.pem" -CAkey "$work/ca-key.pem" -CAcreateserial -CAserial "$work/ca.srl" -extfile "$work/ext.cnf" \
  -out "$dir/localhost.pem"
# The CA's key is thrown away: nothing else can ever be signed by this test CA.
