package cluster

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stateproof/stateproof/internal/explore"
	"github.com/stateproof/stateproof/internal/gen"
)

// writeCert signs a certificate for 127.0.0.1 with the CA (nil: self-
// signed CA) and writes it and its key as PEM; it returns the parsed
// certificate and key for signing others.
func writeCert(t *testing.T, dir, name string, ca *x509.Certificate, caKey *ecdsa.PrivateKey) (*x509.Certificate, *ecdsa.PrivateKey) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(time.Now().UnixNano()), Subject: pkix.Name{CommonName: name},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")},
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth, x509.ExtKeyUsageClientAuth}, KeyUsage: x509.KeyUsageDigitalSignature}
	signer, signKey := tmpl, key
	if ca == nil {
		tmpl.IsCA, tmpl.BasicConstraintsValid = true, true
		tmpl.KeyUsage |= x509.KeyUsageCertSign
	} else {
		signer, signKey = ca, caKey
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, signer, &key.PublicKey, signKey)
	if err != nil {
		t.Fatal(err)
	}
	kb, _ := x509.MarshalECPrivateKey(key)
	os.WriteFile(filepath.Join(dir, name+".pem"), pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600)   //nolint:errcheck // read back below
	os.WriteFile(filepath.Join(dir, name+".key"), pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kb}), 0o600) //nolint:errcheck
	cert, _ := x509.ParseCertificate(der)
	return cert, key
}

// TestMutualTLS: workers with certificates from one CA search together
// over TLS; a worker whose certificate another CA signed is refused.
func TestMutualTLS(t *testing.T) {
	dir := t.TempDir()
	ca, caKey := writeCert(t, dir, "ca", nil, nil)
	writeCert(t, dir, "w0", ca, caKey)
	writeCert(t, dir, "w1", ca, caKey)
	other, otherKey := writeCert(t, dir, "other-ca", nil, nil)
	writeCert(t, dir, "rogue", other, otherKey)
	files := func(name string) *TLSFiles {
		return &TLSFiles{Cert: filepath.Join(dir, name+".pem"), Key: filepath.Join(dir, name+".key"), CA: filepath.Join(dir, "ca.pem")}
	}
	src := []byte(gen.Toggles(5))
	res, errs := cluster(t, src, 2, 1000, func(i int, c *Config) { c.TLS = files([]string{"w0", "w1"}[i]) })
	if errs[0] != nil || errs[1] != nil {
		t.Fatal(errs)
	}
	sameGraph(t, "tls", res.Graph, explore.Search{Machine: machine(t, src), Cap: 1000}.Run())
	res, errs = cluster(t, src, 2, 1000, func(i int, c *Config) {
		c.TLS = files([]string{"w0", "rogue"}[i])
		c.StartTimeout = 2 * time.Second
	})
	if res != nil || errs[0] == nil || errs[1] == nil {
		t.Errorf("a worker with a rogue certificate took part: %v", errs)
	}
}
