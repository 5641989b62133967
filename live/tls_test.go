package live_test

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
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rdbgen/rdbgen/live"
	"github.com/rdbgen/rdbgen/record"
	"github.com/rdbgen/rdbgen/server"
)

// testCerts writes a CA and a certificate and key it signed for 127.0.0.1 (server and
// client use) into dir, and returns their paths.
func testCerts(t *testing.T, dir string) (ca, cert, key string) {
	t.Helper()
	newKey := func() *ecdsa.PrivateKey {
		k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		return k
	}
	write := func(name, typ string, der []byte) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der}), 0o600); err != nil {
			t.Fatal(err)
		}
		return path
	}
	caKey, leafKey := newKey(), newKey()
	now := time.Now()
	caTmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "rdbgen test CA"},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(time.Hour), IsCA: true, BasicConstraintsValid: true,
		KeyUsage: x509.KeyUsageCertSign}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	leafTmpl := &x509.Certificate{SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: "127.0.0.1"},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(time.Hour), IPAddresses: []net.IP{net.ParseIP("127.0.0.1")},
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth, x509.ExtKeyUsageClientAuth}}
	leafDER, err := x509.CreateCertificate(rand.Reader, leafTmpl, caTmpl, &leafKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalECPrivateKey(leafKey)
	if err != nil {
		t.Fatal(err)
	}
	return write("ca.pem", "CERTIFICATE", caDER), write("cert.pem", "CERTIFICATE", leafDER), write("key.pem", "EC PRIVATE KEY", keyDER)
}

// TestTLS reads a server over TLS, with a client certificate (the server's default
// tls-auth-clients yes asks for one), by sync and by scan, and checks the TLS options.
func TestTLS(t *testing.T) {
	ca, cert, key := testCerts(t, t.TempDir())
	port, err := server.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	src := startServer(t, "", "--tls-port", strconv.Itoa(port), "--tls-cert-file", cert, "--tls-key-file", key,
		"--tls-ca-cert-file", ca, "--repl-diskless-sync", "yes", "--repl-diskless-sync-delay", "0")
	fill(t, src.Addr)
	want := stateOf(t, src.Addr, "")
	url := "rediss://127.0.0.1:" + strconv.Itoa(port)
	for _, via := range []live.Via{live.Sync, live.Scan} {
		for _, tls := range []live.TLS{{CA: ca, Cert: cert, Key: key}, {Insecure: true, Cert: cert, Key: key}} {
			s, err := live.Open(url, live.Options{Via: via, TLS: tls})
			if err != nil {
				t.Fatal(err)
			}
			dst := startServer(t, writeFile(t, s))
			if got := stateOf(t, dst.Addr, ""); !reflect.DeepEqual(got, want) {
				t.Errorf("%s, %+v: the file's server holds\n%+v\nthe source\n%+v", via, tls, got, want)
			}
		}
	}
	// Without the CA, the server's certificate is unknown; without a client certificate,
	// the server refuses the connection.
	for _, tls := range []live.TLS{{Cert: cert, Key: key}, {CA: ca}} {
		s, err := live.Open(url, live.Options{TLS: tls, Timeout: 5 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		err = s.WriteTo(t.Context(), record.Discard{})
		if err == nil || !strings.Contains(err.Error(), "connect to "+url) {
			t.Errorf("%+v: %v, want an error connecting to %s", tls, err, url)
		}
	}
}
