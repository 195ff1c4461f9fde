package cluster

import (
	"context"
	"crypto/subtle"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"net"
	"os"
	"sync/atomic"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
)

// serviceName is the gRPC service every worker serves.
const serviceName = "stateproof.cluster.v1.Worker"

// The methods of the service; each takes and returns one hand-encoded
// message (wire.go).
const (
	mHello   = "Hello"   // coordinator → worker: check the plan, seed the root
	mExpand  = "Expand"  // coordinator → worker: start expanding a level
	mStatus  = "Status"  // coordinator → worker: is the level in? its keys
	mDeliver = "Deliver" // worker → owner: successors it owns
	mAssign  = "Assign"  // coordinator → worker: their global indexes
	mGather  = "Gather"  // coordinator → worker: a page of its states
	mFirst   = "First"   // coordinator → worker: its least state per location and probe
	mNode    = "Node"    // coordinator → worker: a state's parent, step and words, if it owns it
	mRelease = "Release" // coordinator → worker: done, exit
	mAbort   = "Abort"   // coordinator → worker: the run failed, exit undecided
	mPing    = "Ping"    // coordinator → worker: still here (between calls)
)

var methods = []string{mHello, mExpand, mStatus, mDeliver, mAssign, mGather, mFirst, mNode, mRelease, mAbort, mPing}

// tokenKey is the metadata key of the shared token.
const tokenKey = "stateproof-token"

// maxMessage bounds one message (a level's keys of one worker can be
// megabytes; the default 4 MiB would refuse them).
const maxMessage = 1 << 30

// handler answers one method call.
type handler func(method string, req []byte) ([]byte, error)

// serviceDesc describes the service to grpc by hand: one unary method per
// name, all dispatched to the worker's handler.
func serviceDesc() *grpc.ServiceDesc {
	sd := &grpc.ServiceDesc{ServiceName: serviceName, HandlerType: (*any)(nil)}
	for _, name := range methods {
		sd.Methods = append(sd.Methods, grpc.MethodDesc{
			MethodName: name,
			Handler: func(srv any, ctx context.Context, decode func(any) error, icpt grpc.UnaryServerInterceptor) (any, error) {
				var req []byte
				if err := decode(&req); err != nil {
					return nil, err
				}
				call := func(_ context.Context, r any) (any, error) {
					resp, err := srv.(handler)(name, *r.(*[]byte))
					if err != nil {
						return nil, err
					}
					return &resp, nil
				}
				if icpt == nil {
					return call(ctx, &req)
				}
				return icpt(ctx, &req, &grpc.UnaryServerInfo{Server: srv, FullMethod: "/" + serviceName + "/" + name}, call)
			},
		})
	}
	return sd
}

// requireToken refuses a call that does not carry the shared token,
// comparing in constant time so the answer's timing says nothing of it.
func requireToken(token []byte) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, h grpc.UnaryHandler) (any, error) {
		md, _ := metadata.FromIncomingContext(ctx)
		got := md.Get(tokenKey)
		if len(got) != 1 || subtle.ConstantTimeCompare([]byte(got[0]), token) != 1 {
			return nil, status.Error(codes.Unauthenticated, "stateproof cluster: missing or wrong token (--token-file)")
		}
		return h(ctx, req)
	}
}

// TLSFiles are the PEM files of an optional TLS setup: this worker's
// certificate and key, and the CA that signed every worker's. With a CA,
// the connection is mutual: each side checks the other's certificate.
type TLSFiles struct{ Cert, Key, CA string }

func (t *TLSFiles) enabled() bool { return t != nil && (t.Cert != "" || t.CA != "") }

func (t *TLSFiles) load() (cert tls.Certificate, pool *x509.CertPool, err error) {
	if t.Cert == "" || t.Key == "" || t.CA == "" {
		return cert, nil, fmt.Errorf("TLS needs --tls-cert, --tls-key and --tls-ca together")
	}
	if cert, err = tls.LoadX509KeyPair(t.Cert, t.Key); err != nil {
		return cert, nil, fmt.Errorf("--tls-cert/--tls-key: %v", err)
	}
	pem, err := os.ReadFile(t.CA)
	if err != nil {
		return cert, nil, fmt.Errorf("--tls-ca: %v", err)
	}
	pool = x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pem) {
		return cert, nil, fmt.Errorf("--tls-ca %s: no PEM certificate in it", t.CA)
	}
	return cert, pool, nil
}

func (t *TLSFiles) serverCreds() (credentials.TransportCredentials, error) {
	if !t.enabled() {
		return insecure.NewCredentials(), nil
	}
	cert, pool, err := t.load()
	if err != nil {
		return nil, err
	}
	return credentials.NewTLS(&tls.Config{Certificates: []tls.Certificate{cert}, ClientCAs: pool,
		ClientAuth: tls.RequireAndVerifyClientCert, MinVersion: tls.VersionTLS13}), nil
}

func (t *TLSFiles) clientCreds() (credentials.TransportCredentials, error) {
	if !t.enabled() {
		return insecure.NewCredentials(), nil
	}
	cert, pool, err := t.load()
	if err != nil {
		return nil, err
	}
	return credentials.NewTLS(&tls.Config{Certificates: []tls.Certificate{cert}, RootCAs: pool, MinVersion: tls.VersionTLS13}), nil
}

// newServer serves the worker's handler on lis, behind the token check.
func newServer(lis net.Listener, h handler, token []byte, t *TLSFiles) (*grpc.Server, error) {
	creds, err := t.serverCreds()
	if err != nil {
		return nil, err
	}
	s := grpc.NewServer(grpc.Creds(creds), grpc.ForceServerCodec(rawCodec{}), grpc.UnaryInterceptor(requireToken(token)),
		grpc.MaxRecvMsgSize(maxMessage), grpc.MaxSendMsgSize(maxMessage))
	s.RegisterService(serviceDesc(), h)
	go s.Serve(lis) //nolint:errcheck // Serve returns when the server is stopped
	return s, nil
}

// peer is one worker as another sees it: a gRPC connection, or the worker
// itself, called directly.
type peer interface {
	call(ctx context.Context, method string, req []byte) ([]byte, error)
	close()
}

type remote struct {
	addr  string
	conn  *grpc.ClientConn
	token string
	sent  *atomic.Int64 // bytes of requests sent by this process
}

func dial(addr string, token []byte, t *TLSFiles, sent *atomic.Int64) (*remote, error) {
	creds, err := t.clientCreds()
	if err != nil {
		return nil, err
	}
	conn, err := grpc.NewClient("passthrough:///"+addr, grpc.WithTransportCredentials(creds),
		grpc.WithDefaultCallOptions(grpc.ForceCodec(rawCodec{}), grpc.MaxCallRecvMsgSize(maxMessage), grpc.MaxCallSendMsgSize(maxMessage)))
	if err != nil {
		return nil, fmt.Errorf("peer %s: %v", addr, err)
	}
	return &remote{addr: addr, conn: conn, token: string(token), sent: sent}, nil
}

func (r *remote) call(ctx context.Context, method string, req []byte) ([]byte, error) {
	ctx = metadata.AppendToOutgoingContext(ctx, tokenKey, r.token)
	var resp []byte
	r.sent.Add(int64(len(req)))
	if err := r.conn.Invoke(ctx, "/"+serviceName+"/"+method, &req, &resp); err != nil {
		if status.Code(err) == codes.Unauthenticated {
			return nil, fmt.Errorf("%s refused this worker's token: %v", r.addr, status.Convert(err).Message())
		}
		return nil, err
	}
	return resp, nil
}

func (r *remote) close() { r.conn.Close() }

// self is the worker calling its own handler.
type self struct{ h handler }

func (s self) call(_ context.Context, method string, req []byte) ([]byte, error) {
	return s.h(method, req)
}

func (self) close() {}

// unavailable reports whether a call failed because the peer is not
// (yet) listening.
func unavailable(err error) bool { return status.Code(err) == codes.Unavailable }
