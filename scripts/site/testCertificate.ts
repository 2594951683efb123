/**
 * The certificate and key the test site's TLS origin is served with (server.ts): self-signed, for 127.0.0.1
 * and localhost, valid from 2025 to 2125, an EC P-256 key. Committed on purpose, and a test key only: the
 * point of the origin is a certificate no client trusts (interface §2.3 `skipTlsVerification`: verified, the
 * scrape fails; skipped, it succeeds). Nothing secret rests on it. Made with OpenSSL 3: `openssl ca -selfsign`
 * with subjectAltName IP:127.0.0.1 and DNS:localhost, CA:FALSE, serverAuth, and a start date in the past (so
 * that a machine whose clock is behind does not find it not yet valid).
 */

export const TEST_CERTIFICATE = `-----BEGIN CERTIFICATE-----
MIIBnTCCAUOgAwIBAgIBATAKBggqhkjOPQQDAjAeMRwwGgYDVQQDDBNjcmF3bHNw
ZWMgdGVzdCBzaXRlMCAXDTI1MDEwMTAwMDAwMFoYDzIxMjUwMTAxMDAwMDAwWjAe
MRwwGgYDVQQDDBNjcmF3bHNwZWMgdGVzdCBzaXRlMFkwEwYHKoZIzj0CAQYIKoZI
zj0DAQcDQgAEudV5imaik6CSeE6CAtxtbh8KRQWaLZc5xwHnCnG4H3NJh1MWXMEr
ncZIDF0OWHsFJYxUFC1heCPifN8Rre6wjqNwMG4wGgYDVR0RBBMwEYcEfwAAAYIJ
bG9jYWxob3N0MAwGA1UdEwEB/wQCMAAwDgYDVR0PAQH/BAQDAgeAMBMGA1UdJQQM
MAoGCCsGAQUFBwMBMB0GA1UdDgQWBBS0R2cu3EKbzHAXR5iJOtm9sY3O1DAKBggq
hkjOPQQDAgNIADBFAiEA98Cl/wPVi+C9LYo4bBUb3ujIVDMEcPOLzpMVN9kZwUAC
IAaXpK1P1ZCDsdnxdaRjJtONS+qV1WGY5FAYaESIEzWq
-----END CERTIFICATE-----
`;

export const TEST_CERTIFICATE_KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgoh7MpyIuisAzqfBx
Cx0m6DUx88SaRqFC7pv1axtNKaehRANCAAS51XmKZqKToJJ4ToIC3G1uHwpFBZot
lznHAecKcbgfc0mHUxZcwSudxkgMXQ5YewUljFQULWF4I+J83xGt7rCO
-----END PRIVATE KEY-----
`;
