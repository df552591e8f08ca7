package main

// An emulated Windows node for one case: its own HNS emulator state, plugin
// data, CNI config folder, bin folder and libcni result cache under a
// scratch folder, set up and inspected with hnsctl, as the C++ e2e suites do
// (tests/support/emulated_node.hpp).

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/containernetworking/cni/libcni"
)

type node struct {
	dir    string
	hnsctl string
}

// newNode points this process's environment at a fresh node: libcni passes
// the runtime's environment on to every plugin it runs, so the plugins and
// their delegates find the same emulator state. libcni's result cache
// (C:\var\lib\cni on a containerd node, where go-cni never sets one) moves
// into the node too, so that a run leaves nothing outside it and the suite
// can see what the cache holds.
func newNode(hnsctl string) (*node, error) {
	dir, err := os.MkdirTemp("", "go-cni-containerd-")
	if err != nil {
		return nil, err
	}
	n := &node{dir: dir, hnsctl: hnsctl}
	os.Setenv("WINCNI_EMULATOR_DIR", n.path("hns"))
	os.Setenv("WINCNI_DATA_DIR", n.path("plugin"))
	libcni.CacheDir = n.path("cni-cache")
	for _, folder := range []string{"bin", "ipam-bin", "conf"} {
		if err := os.MkdirAll(n.path(folder), 0o755); err != nil {
			return nil, err
		}
	}
	return n, nil
}

func (n *node) path(parts ...string) string {
	return filepath.Join(append([]string{n.dir}, parts...)...)
}

func (n *node) remove() { os.RemoveAll(n.dir) }

func (n *node) run(args ...string) (string, error) {
	cmd := exec.Command(n.hnsctl, args...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return string(out), fmt.Errorf("hnsctl %s: %v\n%s%s", strings.Join(args, " "), err, out, stderr.String())
	}
	return string(out), nil
}

func (n *node) createNamespace() (string, error) {
	out, err := n.run("namespace", "create")
	return strings.TrimSpace(out), err
}

// executable is a program's file name on this OS.
func executable(name string) string {
	if runtime.GOOS == "windows" && !strings.HasSuffix(name, ".exe") {
		return name + ".exe"
	}
	return name
}

// binDirs are the runtime's bin folders (containerd's bin_dirs): the main
// plugins in one, host-local in another, so that CNI_PATH lists two (with
// ';' on Windows) and each plugin must search it whole for its delegate.
func (n *node) binDirs() []string { return []string{n.path("bin"), n.path("ipam-bin")} }

// install puts a plugin into a bin folder of the node under the name a
// config's "type" gives it (win-bridge.exe as sdnbridge.exe, say), as an
// operator installs it.
func (n *node) install(binary, name string) error {
	folder := "bin"
	if name == "host-local" {
		folder = "ipam-bin"
	}
	target := n.path(folder, executable(name))
	if err := os.Link(binary, target); err == nil {
		return nil
	}
	in, err := os.Open(binary)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(target, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o755)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// sandboxID is a fresh 64-hex ID, as containerd gives a pod sandbox.
func sandboxID() string {
	var bytes [32]byte
	if _, err := rand.Read(bytes[:]); err != nil {
		panic(err)
	}
	return hex.EncodeToString(bytes[:])
}

// endpoint is the HNS endpoint called name, as `hnsctl endpoint list --json`
// shows it.
func (n *node) endpoint(name string) (map[string]interface{}, error) {
	out, err := n.run("endpoint", "list", "--json")
	if err != nil {
		return nil, err
	}
	var endpoints []map[string]interface{}
	if err := json.Unmarshal([]byte(out), &endpoints); err != nil {
		return nil, fmt.Errorf("hnsctl endpoint list: %v", err)
	}
	for _, endpoint := range endpoints {
		if endpoint["Name"] == name {
			return endpoint, nil
		}
	}
	return nil, fmt.Errorf("no endpoint %q among %d", name, len(endpoints))
}

// host-local's folder of which files name which container (docs/host-local.md).
const ownerIndex = ".wincni-owners"

// leftovers names what the plugins and the runtime left behind: what hnsctl
// audit reports, files in flannel's scratch folder, addresses host-local
// still holds, results libcni still caches.
func (n *node) leftovers(network string) error {
	if out, err := n.run("audit"); err != nil {
		return fmt.Errorf("audit: %s", out)
	}
	if entries, _ := os.ReadDir(n.path("flannel")); len(entries) > 0 {
		return fmt.Errorf("flannel's scratch folder still holds %s", entries[0].Name())
	}
	if entries, _ := os.ReadDir(n.path("cni-cache", "results")); len(entries) > 0 {
		return fmt.Errorf("libcni still caches a result: %s", entries[0].Name())
	}
	entries, _ := os.ReadDir(n.path("ipam", network))
	for _, entry := range entries {
		name := entry.Name()
		if name == ownerIndex {
			// Kept, like the lock; a bucket file in it names a reservation.
			if buckets, _ := os.ReadDir(n.path("ipam", network, name)); len(buckets) > 0 {
				return fmt.Errorf("host-local's owner index still names reservations (%s)", buckets[0].Name())
			}
		} else if name != "lock" && !strings.HasPrefix(name, "last_reserved_ip.") {
			return fmt.Errorf("host-local still holds %s", name)
		}
	}
	return nil
}
