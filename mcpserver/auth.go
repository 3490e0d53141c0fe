package mcpserver

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/subtle"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/cordonhq/cordon/codemode"
	"github.com/golang-jwt/jwt/v5"
	"github.com/modelcontextprotocol/go-sdk/auth"
)

// Bounds of the bearer tokens StaticToken accepts, in bytes.
const (
	// MinTokenLength is the shortest token StaticToken accepts: 16
	// characters of base64 carry 96 bits, past guessing over a network.
	MinTokenLength = 16
	// MaxTokenLength is the longest token any verifier here reads.
	MaxTokenLength = 16 << 10
)

// MaxPrincipalLength bounds a principal's length in bytes.
const MaxPrincipalLength = 256

// DefaultJWTLeeway is the clock skew the cordon mcp command allows on a
// JWT's exp, nbf and iat claims.
const DefaultJWTLeeway = 30 * time.Second

// PrincipalFrom returns the principal ctx carries: in a tool call that
// Server runs, the principal of its session (the subject of the bearer
// token that opened it, or [Options.Principal]); in an HTTP request that
// passed HTTPHandler's authentication, the token's subject. It returns ""
// when there is none.
func PrincipalFrom(ctx context.Context) string {
	if p := codemode.PrincipalFrom(ctx); p != "" {
		return p
	}
	if ti := auth.TokenInfoFromContext(ctx); ti != nil {
		return ti.UserID
	}
	return ""
}

// CheckPrincipal returns an error when p cannot be a principal: empty,
// longer than MaxPrincipalLength, not UTF-8, or holding a control or
// line-separator character (a principal reaches logs and the policy).
func CheckPrincipal(p string) error {
	switch {
	case p == "":
		return errors.New("mcpserver: the principal is empty")
	case len(p) > MaxPrincipalLength:
		return fmt.Errorf("mcpserver: the principal is %d bytes long; at most %d", len(p), MaxPrincipalLength)
	case !utf8.ValidString(p):
		return errors.New("mcpserver: the principal is not UTF-8")
	}
	for _, r := range p {
		if unicode.IsControl(r) || r == '\u2028' || r == '\u2029' {
			return fmt.Errorf("mcpserver: the principal %q holds a control character", p)
		}
	}
	return nil
}

// CheckToken returns an error when token cannot be a static bearer token:
// shorter than MinTokenLength, longer than MaxTokenLength, or not of the
// b64token syntax of RFC 6750 (letters, digits and - . _ ~ + /, then
// optional = padding), the only form an Authorization header carries.
func CheckToken(token string) error {
	if len(token) < MinTokenLength {
		return fmt.Errorf("mcpserver: the bearer token is %d characters long; at least %d", len(token), MinTokenLength)
	}
	if len(token) > MaxTokenLength {
		return fmt.Errorf("mcpserver: the bearer token is %d characters long; at most %d", len(token), MaxTokenLength)
	}
	body := strings.TrimRight(token, "=")
	if body == "" {
		return errors.New("mcpserver: the bearer token is only padding")
	}
	for i := 0; i < len(body); i++ {
		c := body[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("-._~+/", c) >= 0) {
			return fmt.Errorf("mcpserver: the bearer token holds %q at byte %d; a token is letters, digits and - . _ ~ + / (RFC 6750)", body[i:i+1], i)
		}
	}
	return nil
}

// GenerateToken returns a new random bearer token: 32 bytes from
// crypto/rand, base64url without padding (43 characters).
func GenerateToken() (string, error) {
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("mcpserver: generating a token: %w", err)
	}
	return base64.RawURLEncoding.EncodeToString(b[:]), nil
}

// StaticToken returns a verifier that accepts exactly token, compared in
// constant time, as principal. Both are checked first (CheckToken,
// CheckPrincipal).
func StaticToken(token, principal string) (auth.TokenVerifier, error) {
	if err := CheckToken(token); err != nil {
		return nil, err
	}
	if err := CheckPrincipal(principal); err != nil {
		return nil, err
	}
	want := sha256.Sum256([]byte(token))
	return func(_ context.Context, got string, _ *http.Request) (*auth.TokenInfo, error) {
		if !tokenEqual(got, want) {
			return nil, fmt.Errorf("mcpserver: %w: the bearer token does not match", auth.ErrInvalidToken)
		}
		return &auth.TokenInfo{UserID: principal}, nil
	}, nil
}

// tokenEqual reports whether got's SHA-256 is want, in time that depends
// on neither the token nor how much of it matches: the digests compared
// are of one length, so ConstantTimeCompare does not even return early on
// a length mismatch.
func tokenEqual(got string, want [sha256.Size]byte) bool {
	h := sha256.Sum256([]byte(got))
	return subtle.ConstantTimeCompare(h[:], want[:]) == 1
}

// JWTConfig configures JWTVerifier.
type JWTConfig struct {
	// Keys are the public keys that may sign a token: *[rsa.PublicKey] (2048
	// bits or more; RS256, RS384, RS512, PS256, PS384, PS512),
	// *[ecdsa.PublicKey] (P-256, P-384, P-521; ES256, ES384, ES512) or
	// [ed25519.PublicKey] (EdDSA). Symmetric keys are not accepted: the
	// server should not be able to mint the tokens it checks.
	Keys []crypto.PublicKey
	// Issuer is the iss claim a token must carry.
	Issuer string
	// Audience is a value the aud claim must contain: this server's
	// canonical URL, usually, as the MCP specification asks (a token
	// issued for another resource is refused).
	Audience string
	// Leeway is the clock skew allowed on exp, nbf and iat (0: none).
	Leeway time.Duration
	// Now is the clock (default [time.Now]).
	Now func() time.Time
}

// jwtClaims are the claims JWTVerifier reads.
type jwtClaims struct {
	jwt.RegisteredClaims
}

// JWTVerifier returns a verifier of JWTs signed by one of cfg.Keys, issued
// by cfg.Issuer for cfg.Audience, with an expiry (exp) in the future, not
// before their nbf and not issued in the future. The principal is the sub
// claim, which must be a valid principal (CheckPrincipal). The signing
// algorithm comes from the keys, never from the token alone: none and the
// HMAC algorithms are refused.
func JWTVerifier(cfg JWTConfig) (auth.TokenVerifier, error) {
	if len(cfg.Keys) == 0 {
		return nil, errors.New("mcpserver: JWT verification needs at least one public key")
	}
	if cfg.Issuer == "" {
		return nil, errors.New("mcpserver: JWT verification needs an issuer")
	}
	if cfg.Audience == "" {
		return nil, errors.New("mcpserver: JWT verification needs an audience")
	}
	if cfg.Leeway < 0 {
		return nil, fmt.Errorf("mcpserver: JWT leeway %v is negative", cfg.Leeway)
	}
	now := cfg.Now
	if now == nil {
		now = time.Now
	}
	keys := map[string][]jwt.VerificationKey{} // by algorithm
	var algs []string
	for i, k := range cfg.Keys {
		ka, err := keyAlgorithms(k)
		if err != nil {
			return nil, fmt.Errorf("mcpserver: JWT key %d: %w", i+1, err)
		}
		for _, a := range ka {
			if keys[a] == nil {
				algs = append(algs, a)
			}
			keys[a] = append(keys[a], k)
		}
	}
	parser := jwt.NewParser(
		jwt.WithValidMethods(algs),
		jwt.WithIssuer(cfg.Issuer),
		jwt.WithAudience(cfg.Audience),
		jwt.WithExpirationRequired(),
		jwt.WithIssuedAt(),
		jwt.WithLeeway(cfg.Leeway),
		jwt.WithTimeFunc(now),
	)
	keyFunc := func(t *jwt.Token) (any, error) {
		ks := keys[t.Method.Alg()]
		if len(ks) == 0 {
			return nil, fmt.Errorf("no key for algorithm %s", t.Method.Alg())
		}
		return jwt.VerificationKeySet{Keys: ks}, nil
	}
	return func(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
		if len(token) > MaxTokenLength {
			return nil, fmt.Errorf("mcpserver: %w: the token is %d bytes long; at most %d", auth.ErrInvalidToken, len(token), MaxTokenLength)
		}
		var c jwtClaims
		if _, err := parser.ParseWithClaims(token, &c, keyFunc); err != nil {
			return nil, fmt.Errorf("mcpserver: %w: %v", auth.ErrInvalidToken, err)
		}
		if err := CheckPrincipal(c.Subject); err != nil {
			return nil, fmt.Errorf("mcpserver: %w: the sub claim: %v", auth.ErrInvalidToken, err)
		}
		return &auth.TokenInfo{UserID: c.Subject, Expiration: c.ExpiresAt.Time}, nil
	}, nil
}

// keyAlgorithms returns the JWS algorithms that k verifies.
func keyAlgorithms(k crypto.PublicKey) ([]string, error) {
	switch k := k.(type) {
	case *rsa.PublicKey:
		if k.N == nil || k.N.BitLen() < 2048 {
			return nil, errors.New("an RSA key must have 2048 bits or more")
		}
		return []string{"RS256", "RS384", "RS512", "PS256", "PS384", "PS512"}, nil
	case *ecdsa.PublicKey:
		if k.Curve != nil {
			switch k.Curve.Params().Name {
			case "P-256":
				return []string{"ES256"}, nil
			case "P-384":
				return []string{"ES384"}, nil
			case "P-521":
				return []string{"ES512"}, nil
			}
		}
		return nil, errors.New("an ECDSA key must be on P-256, P-384 or P-521")
	case ed25519.PublicKey:
		if len(k) != ed25519.PublicKeySize {
			return nil, errors.New("the Ed25519 key has the wrong size")
		}
		return []string{"EdDSA"}, nil
	}
	return nil, fmt.Errorf("keys of type %T are not supported (RSA, ECDSA or Ed25519 public keys are)", k)
}

// ParsePublicKeys returns the public keys of PEM data: PUBLIC KEY
// (PKIX), RSA PUBLIC KEY (PKCS #1) and CERTIFICATE blocks, one key each,
// of the types [JWTConfig.Keys] takes. A private key, another block or no
// block at all is an error.
func ParsePublicKeys(data []byte) ([]crypto.PublicKey, error) {
	var keys []crypto.PublicKey
	for n := 1; ; n++ {
		var b *pem.Block
		b, data = pem.Decode(data)
		if b == nil {
			break
		}
		var k crypto.PublicKey
		var err error
		switch b.Type {
		case "PUBLIC KEY":
			k, err = x509.ParsePKIXPublicKey(b.Bytes)
		case "RSA PUBLIC KEY":
			k, err = x509.ParsePKCS1PublicKey(b.Bytes)
		case "CERTIFICATE":
			var c *x509.Certificate
			if c, err = x509.ParseCertificate(b.Bytes); err == nil {
				k = c.PublicKey
			}
		default:
			if strings.Contains(b.Type, "PRIVATE") {
				return nil, fmt.Errorf("mcpserver: PEM block %d is a private key; give the public key only", n)
			}
			return nil, fmt.Errorf("mcpserver: PEM block %d is a %s; want a PUBLIC KEY or a CERTIFICATE", n, b.Type)
		}
		if err != nil {
			return nil, fmt.Errorf("mcpserver: PEM block %d (%s): %w", n, b.Type, err)
		}
		if _, err := keyAlgorithms(k); err != nil {
			return nil, fmt.Errorf("mcpserver: PEM block %d: %w", n, err)
		}
		keys = append(keys, k)
	}
	if len(keys) == 0 {
		return nil, errors.New("mcpserver: no PEM public key found")
	}
	return keys, nil
}

// bearer returns the token of r's Authorization header, as
// [auth.RequireBearerToken] reads it.
func bearer(r *http.Request) (string, bool) {
	f := strings.Fields(r.Header.Get("Authorization"))
	if len(f) != 2 || !strings.EqualFold(f[0], "bearer") {
		return "", false
	}
	return f[1], true
}

type verifiedKey struct{}

// Authenticate wraps h with the server's authentication, as HTTPHandler
// does /mcp: a request without a valid bearer token (or JWT) gets a 401
// with a Bearer challenge, unless [Options.AllowUnauthenticated] is set.
// Serve the host's other endpoints (its metrics, say) through it, so that
// they are no more open than the server.
func (s *Server) Authenticate(h http.Handler) http.Handler { return s.authenticate(h) }

// authenticate wraps next with the server's authentication: every request
// is verified ([Options.Verifier]) or refused with a 401, and the SDK's
// [auth.TokenInfo] goes on the request's context, where the streamable
// handler binds each session to the UserID that opened it.
func (s *Server) authenticate(next http.Handler) http.Handler {
	// RequireBearerToken puts the TokenInfo where the SDK reads it; the
	// token was verified already, so it only hands it on.
	sdk := auth.RequireBearerToken(func(ctx context.Context, _ string, _ *http.Request) (*auth.TokenInfo, error) {
		if ti, _ := ctx.Value(verifiedKey{}).(*auth.TokenInfo); ti != nil {
			return ti, nil
		}
		return nil, auth.ErrInvalidToken
	}, &auth.RequireBearerTokenOptions{AllowMissingExpiration: true})(next)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case s.opts.Verifier != nil:
			token, ok := bearer(r)
			if !ok {
				s.unauthorized(w, false, "a bearer token is required (Authorization: Bearer TOKEN)")
				return
			}
			ti, err := s.opts.Verifier(r.Context(), token, r)
			switch {
			case err != nil && errors.Is(err, auth.ErrInvalidToken):
				s.unauthorized(w, true, err.Error())
				return
			case err != nil || ti == nil:
				s.unauthorized(w, true, "mcpserver: the bearer token could not be verified")
				return
			case CheckPrincipal(ti.UserID) != nil:
				s.unauthorized(w, true, "mcpserver: the bearer token names no valid principal")
				return
			case !ti.Expiration.IsZero() && time.Now().After(ti.Expiration):
				s.unauthorized(w, true, "mcpserver: the bearer token has expired")
				return
			}
			sdk.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), verifiedKey{}, ti)))
		case auth.TokenInfoFromContext(r.Context()) != nil:
			// The embedder authenticated the request; a session can be bound
			// only to a principal.
			if CheckPrincipal(auth.TokenInfoFromContext(r.Context()).UserID) != nil {
				s.unauthorized(w, true, "mcpserver: the bearer token names no valid principal")
				return
			}
			next.ServeHTTP(w, r)
		case s.opts.AllowUnauthenticated:
			next.ServeHTTP(w, r)
		default:
			s.unauthorized(w, false, "a bearer token is required (Authorization: Bearer TOKEN)")
		}
	})
}

// unauthorized answers 401 with the WWW-Authenticate challenge of RFC 6750
// (error="invalid_token" when a token was given) and, if the server has
// one, its protected resource metadata URL (RFC 9728).
func (s *Server) unauthorized(w http.ResponseWriter, invalid bool, msg string) {
	ch := `Bearer realm="cordon"`
	if invalid {
		ch += `, error="invalid_token"`
	}
	if u := s.opts.ResourceMetadataURL; u != "" {
		ch += fmt.Sprintf(", resource_metadata=%q", u)
	}
	w.Header().Set("WWW-Authenticate", ch)
	msg = strings.TrimPrefix(msg, "mcpserver: ")
	http.Error(w, "cordon: unauthorized: "+msg, http.StatusUnauthorized)
}
