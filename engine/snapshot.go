package engine

import (
	"archive/tar"
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"sort"
	"strings"
	"time"

	"github.com/cordonhq/cordon/counters"
	"github.com/cordonhq/cordon/internal/abi"
	"github.com/cordonhq/cordon/vfs"
)

// A snapshot is laid out as:
//
//	magic    16 bytes  "cordon-snapshot\n"
//	version   4 bytes  big-endian uint32, SnapshotVersion
//	length    4 bytes  big-endian uint32, the metadata's length, at most MaxSnapshotMetadata
//	metadata           JSON, a SnapshotInfo
//	archive            the rest: the VFS as ExportTar writes "/" (PAX tar)
//
// See docs/snapshots.md.
const snapshotMagic = "cordon-snapshot\n"

// SnapshotVersion is the version of the snapshot format that
// [Sandbox.Snapshot] writes and [SandboxConfig.Snapshot] reads. A snapshot
// of another version is refused with an error that matches
// [ErrSnapshotVersion].
const SnapshotVersion = 1

// MaxSnapshotMetadata bounds the metadata of a snapshot (labels, principal,
// counters), in bytes.
const MaxSnapshotMetadata = 1 << 20

// maxSnapshotCharges bounds the sum of a snapshot's counts: restoring them
// adds one charge per count to the counter store.
const maxSnapshotCharges = 1 << 20

// ErrSnapshot is matched ([errors.Is]) by the error of a sandbox whose
// [SandboxConfig.Snapshot] cannot be read: truncated, damaged, or holding
// more than the sandbox's limits allow. The error is also of KindInvalid.
var ErrSnapshot = errors.New("invalid snapshot")

// ErrSnapshotVersion is matched ([errors.Is]) by the error of a snapshot
// written in another version of the format than [SnapshotVersion]. It
// matches [ErrSnapshot] too.
var ErrSnapshotVersion = fmt.Errorf("%w: unsupported snapshot version", ErrSnapshot)

// SnapshotInfo is the metadata of a snapshot: what it carries besides the
// files.
type SnapshotInfo struct {
	// Version is the snapshot format's version (from the header).
	Version int `json:"-"`
	// Taken is when the snapshot was taken (the engine's clock).
	Taken time.Time `json:"taken"`
	// SessionID is the ID of the sandbox the snapshot was taken of.
	SessionID string `json:"session_id"`
	// Principal and Labels are the sandbox's.
	Principal string            `json:"principal,omitempty"`
	Labels    map[string]string `json:"labels,omitempty"`
	// PolicyRevision is the revision of the sandbox's policy
	// ([Policy.Revision]; "default" without a policy).
	PolicyRevision string `json:"policy_revision"`
	// CounterScope and CounterWindow are the sandbox's counter scope and
	// window ([Counters]).
	CounterScope  counters.Scope `json:"counter_scope"`
	CounterWindow time.Duration  `json:"counter_window,omitempty"`
	// Counters maps each counter of the session to its count (within the
	// window, if any). Only a sandbox whose counters are scoped
	// [counters.PerSession] has any: per-principal counters live on in
	// the store without the snapshot, and per-execution ones end with
	// their execution.
	Counters map[string]int `json:"counters,omitempty"`
}

// Restored says how a sandbox was started from a snapshot
// ([Sandbox.Restored]).
type Restored struct {
	// Snapshot is the snapshot's metadata.
	Snapshot SnapshotInfo
	// PolicyChanged is true when the snapshot was taken under another
	// policy revision than the sandbox's: the counts are restored all the
	// same, but they were charged under other rules.
	PolicyChanged bool
	// CountersRestored is true when the snapshot's counts were added to
	// the sandbox's counters; false when the sandbox's counters are not
	// per session, or the snapshot has none.
	CountersRestored bool
}

// snapshotState is a decoded snapshot: its metadata and its files.
type snapshotState struct {
	info  SnapshotInfo
	files []File
}

// Snapshot returns the sandbox's state as a portable blob that
// [SandboxConfig.Snapshot] starts a new sandbox from: every file and
// directory of the VFS with its mode and modification time, the counts of
// the session's tool-call counters, the labels, the principal, and the
// revision of the policy it was taken under. It takes the sandbox's turn,
// so that the files and the counts are those between two executions.
//
// The format is versioned and documented in docs/snapshots.md. A snapshot
// is not signed: a host that restores one it did not keep itself trusts
// its counts.
func (sb *Sandbox) Snapshot(ctx context.Context) ([]byte, error) {
	if err := sb.acquire(ctx); err != nil {
		return nil, err
	}
	defer sb.release()
	resp, err := sb.request(&abi.Request{Op: abi.OpGetFiles, Path: "/"})
	if err != nil {
		return nil, err
	}
	files := make([]File, len(resp.Files))
	for i, f := range resp.Files {
		files[i] = File{Path: f.Path, Mode: fs.FileMode(f.Mode), ModTime: time.Unix(0, f.ModTime), Data: f.Data}
	}
	info := SnapshotInfo{
		Version:        SnapshotVersion,
		Taken:          sb.e.cfg.now().UTC(),
		SessionID:      sb.id,
		Principal:      sb.principal,
		Labels:         sb.labels,
		PolicyRevision: sb.policyRevision(),
		CounterScope:   sb.scope,
		CounterWindow:  sb.window,
	}
	if sb.scope == counters.PerSession {
		snap, err := sb.store.Load(ctx, sb.key, sb.window)
		if err != nil {
			return nil, &Error{Kind: KindInternal, Message: "snapshot: loading the counters", Err: err}
		}
		for name, n := range snap.Counts {
			if n > 0 {
				if info.Counters == nil {
					info.Counters = map[string]int{}
				}
				info.Counters[name] = n
			}
		}
	}
	meta, err := json.Marshal(info)
	if err != nil {
		return nil, &Error{Kind: KindInternal, Message: "snapshot: encoding the metadata", Err: err}
	}
	if len(meta) > MaxSnapshotMetadata {
		return nil, errorf(KindInvalid, "snapshot: the metadata (labels, principal, counters) takes %d bytes, more than %d", len(meta), MaxSnapshotMetadata)
	}
	var buf bytes.Buffer
	buf.WriteString(snapshotMagic)
	_ = binary.Write(&buf, binary.BigEndian, uint32(SnapshotVersion))
	_ = binary.Write(&buf, binary.BigEndian, uint32(len(meta)))
	buf.Write(meta)
	if err := writeTar(&buf, "/", files); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Restored reports how the sandbox was started from
// [SandboxConfig.Snapshot], or nil if it was not.
func (sb *Sandbox) Restored() *Restored { return sb.restored }

// policyRevision returns the revision of the sandbox's policy, "default"
// without one.
func (sb *Sandbox) policyRevision() string {
	if sb.policy == nil {
		return "default"
	}
	return sb.policy.Revision()
}

// snapshotErr returns an error of KindInvalid that matches ErrSnapshot.
func snapshotErr(format string, args ...any) error {
	return &Error{Kind: KindInvalid, Message: "SandboxConfig.Snapshot", Err: fmt.Errorf("%w: "+format, append([]any{ErrSnapshot}, args...)...)}
}

// ReadSnapshotInfo returns the metadata of a snapshot without its files,
// checking its header and metadata but not its archive.
func ReadSnapshotInfo(b []byte) (SnapshotInfo, error) {
	info, _, err := decodeSnapshotHeader(b)
	return info, err
}

// decodeSnapshotHeader reads the header and metadata of b and returns the
// archive that follows.
func decodeSnapshotHeader(b []byte) (SnapshotInfo, []byte, error) {
	var info SnapshotInfo
	if len(b) < len(snapshotMagic)+8 || string(b[:len(snapshotMagic)]) != snapshotMagic {
		return info, nil, snapshotErr("not a cordon snapshot (no %q header)", strings.TrimSpace(snapshotMagic))
	}
	b = b[len(snapshotMagic):]
	version := binary.BigEndian.Uint32(b)
	if version != SnapshotVersion {
		return info, nil, &Error{Kind: KindInvalid, Message: "SandboxConfig.Snapshot", Err: fmt.Errorf("%w %d: this build reads version %d", ErrSnapshotVersion, version, SnapshotVersion)}
	}
	n := binary.BigEndian.Uint32(b[4:])
	b = b[8:]
	if n > MaxSnapshotMetadata {
		return info, nil, snapshotErr("metadata of %d bytes, more than %d", n, MaxSnapshotMetadata)
	}
	if uint64(n) > uint64(len(b)) {
		return info, nil, snapshotErr("truncated: metadata of %d bytes, %d left", n, len(b))
	}
	if err := json.Unmarshal(b[:n], &info); err != nil {
		return info, nil, snapshotErr("metadata: %v", err)
	}
	info.Version = int(version)
	if !info.CounterScope.Valid() {
		return info, nil, snapshotErr("unknown counter scope %q", info.CounterScope)
	}
	if info.CounterWindow < 0 {
		return info, nil, snapshotErr("negative counter window %v", info.CounterWindow)
	}
	total := 0
	for name, c := range info.Counters {
		if c < 0 || c > maxSnapshotCharges || total+c > maxSnapshotCharges {
			return info, nil, snapshotErr("counter %q: count %d out of range (the counts may add up to %d)", name, c, maxSnapshotCharges)
		}
		total += c
	}
	return info, b[n:], nil
}

// decodeSnapshot reads a snapshot for a sandbox under limits: its files
// must fit the VFS quotas, and their names must be ones the VFS accepts.
func decodeSnapshot(b []byte, limits Limits) (*snapshotState, error) {
	info, archive, err := decodeSnapshotHeader(b)
	if err != nil {
		return nil, err
	}
	files, err := readArchive(archive, limits, "SandboxConfig.Snapshot", ErrSnapshot)
	if err != nil {
		return nil, err
	}
	return &snapshotState{info: info, files: files}, nil
}

// putExact puts files into the sandbox with their modification times as
// given: the directories are put again once their contents are in, since
// making an entry in a directory sets the directory's time.
func (sb *Sandbox) putExact(ctx context.Context, files []File) error {
	if err := sb.acquire(ctx); err != nil {
		return err
	}
	defer sb.release()
	return sb.putExactHeld(files)
}

// putExactHeld is putExact for a caller that holds the sandbox's turn.
func (sb *Sandbox) putExactHeld(files []File) error {
	if err := sb.putFiles(files); err != nil {
		return err
	}
	var dirs []File
	for _, f := range files {
		if f.Mode.IsDir() {
			dirs = append(dirs, f)
		}
	}
	if len(dirs) == 0 {
		return nil
	}
	return sb.putFiles(dirs)
}

// readArchive reads a file system exported by writeTar (a snapshot's, or
// a trace's, [trace.VFS.Tar]) exactly: each entry's mode and modification
// time as archived, only regular files and directories, names the VFS
// accepts, within the VFS quotas of limits. Its errors name what and
// match sentinel.
func readArchive(archive []byte, limits Limits, what string, sentinel error) ([]File, error) {
	bad := func(format string, args ...any) error {
		return &Error{Kind: KindInvalid, Message: what, Err: fmt.Errorf("%w: %s", sentinel, fmt.Sprintf(format, args...))}
	}
	var files []File
	tr := tar.NewReader(bytes.NewReader(archive))
	var total int64
	for {
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, bad("archive: %v", err)
		}
		name := strings.TrimSuffix(hdr.Name, "/")
		if err := checkSnapshotName(name); err != nil {
			return nil, bad("archive entry %q: %v", hdr.Name, err)
		}
		if len(files) >= limits.VFSFiles {
			return nil, &Error{Kind: KindFile, Code: "ENOSPC", Message: what, Err: fmt.Errorf("%w: more entries than the VFS quota of %d", sentinel, limits.VFSFiles)}
		}
		f := File{Path: "/" + name, ModTime: hdr.ModTime, Mode: modeOfTar(hdr.Mode)}
		switch hdr.Typeflag {
		case tar.TypeDir:
			f.Mode |= fs.ModeDir
		case tar.TypeReg:
			if hdr.Size < 0 || hdr.Size > limits.VFSBytes-total {
				return nil, &Error{Kind: KindFile, Code: "ENOSPC", Message: what, Err: fmt.Errorf("%w: the files hold more than the VFS quota of %d bytes", sentinel, limits.VFSBytes)}
			}
			total += hdr.Size
			f.Data = make([]byte, 0, min(hdr.Size, int64(len(archive))))
			buf := bytes.NewBuffer(f.Data)
			if _, err := io.CopyN(buf, tr, hdr.Size); err != nil {
				return nil, bad("archive entry %q: %v", hdr.Name, err)
			}
			f.Data = buf.Bytes()
		default:
			return nil, bad("archive entry %q has type %q; only files and directories are allowed", hdr.Name, hdr.Typeflag)
		}
		files = append(files, f)
	}
	return files, nil
}

// checkSnapshotName checks an archive name as tarName does on export: a
// relative path whose elements the VFS accepts, at most vfs.MaxPathLen
// bytes.
func checkSnapshotName(name string) error {
	if name == "" || path.IsAbs(name) || path.Clean(name) != name {
		return errors.New("the name is not a clean relative path")
	}
	if len(name) > vfs.MaxPathLen {
		return fmt.Errorf("the name is longer than %d bytes", vfs.MaxPathLen)
	}
	for _, elem := range strings.Split(name, "/") {
		if err := vfs.CheckName(elem); err != nil {
			return err
		}
	}
	return nil
}

// useSnapshot decodes cfg.Snapshot, if any, before the sandbox's counters
// are set up: the snapshot's principal and labels stand in for those cfg
// leaves empty.
func (sb *Sandbox) useSnapshot(cfg SandboxConfig) (*snapshotState, error) {
	if len(cfg.Snapshot) == 0 {
		return nil, nil
	}
	st, err := decodeSnapshot(cfg.Snapshot, sb.limits)
	if err != nil {
		return nil, err
	}
	if sb.principal == "" {
		sb.principal = st.info.Principal
	}
	if sb.labels == nil {
		sb.labels = st.info.Labels
	}
	return st, nil
}

// restore puts a decoded snapshot's files into the started sandbox and adds
// its counts to the sandbox's counters, if they are per session.
func (sb *Sandbox) restore(ctx context.Context, st *snapshotState) error {
	if err := sb.putExact(ctx, st.files); err != nil {
		return err
	}
	r := &Restored{Snapshot: st.info, PolicyChanged: st.info.PolicyRevision != sb.policyRevision()}
	if sb.scope == counters.PerSession && len(st.info.Counters) > 0 {
		if err := sb.restoreCounts(ctx, st.info.Counters); err != nil {
			return err
		}
		r.CountersRestored = true
	}
	if r.PolicyChanged {
		sb.e.cfg.logger.Warn("engine: sandbox restored from a snapshot taken under another policy revision",
			"session", sb.id, "snapshot_session", st.info.SessionID,
			"snapshot_policy_revision", st.info.PolicyRevision, "policy_revision", sb.policyRevision())
	}
	sb.restored = r
	return nil
}

// restoreCounts adds counts to the sandbox's counters: charge i goes to
// every counter whose count is more than i, so that the store takes one
// Add per unit of the largest count. Under a window the charges are dated
// now, by the store's clock.
func (sb *Sandbox) restoreCounts(ctx context.Context, counts map[string]int) error {
	names := make([]string, 0, len(counts))
	most := 0
	for name, n := range counts {
		names = append(names, name)
		most = max(most, n)
	}
	sort.Strings(names)
	for i := 0; i < most; i++ {
		var batch []string
		for _, name := range names {
			if counts[name] > i {
				batch = append(batch, name)
			}
		}
		for attempt := 0; ; attempt++ {
			if attempt == maxChargeAttempts {
				return errorf(KindInternal, "restoring the snapshot's counters: the scope kept changing")
			}
			snap, err := sb.store.Load(ctx, sb.key, sb.window)
			if err != nil {
				return &Error{Kind: KindInternal, Message: "restoring the snapshot's counters", Err: err}
			}
			ok, err := sb.store.Add(ctx, sb.key, sb.window, snap.Version, batch)
			if err != nil {
				return &Error{Kind: KindInternal, Message: "restoring the snapshot's counters", Err: err}
			}
			if ok {
				break
			}
		}
	}
	return nil
}
