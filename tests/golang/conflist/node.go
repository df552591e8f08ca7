package main

// An emulated Windows node for one case: its own HNS emulator state and
// plugin data under a scratch folder, set up and inspected with hnsctl, as
// the C++ e2e suites do (tests/support/emulated_node.hpp).

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

type node struct {
	dir    string
	hnsctl string
}

// newNode points this process's environment at a fresh node: Go's libcni
// passes the runtime's environment on to every plugin it runs, so the
// plugins and their delegates find the same emulator state.
func newNode(hnsctl string) (*node, error) {
	dir, err := os.MkdirTemp("", "cni-go-conflist-")
	if err != nil {
		return nil, err
	}
	n := &node{dir: dir, hnsctl: hnsctl}
	os.Setenv("WINCNI_EMULATOR_DIR", n.path("hns"))
	os.Setenv("WINCNI_DATA_DIR", n.path("plugin"))
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

// leftovers names what the plugins left behind: what hnsctl audit reports,
// files in flannel's scratch folder, addresses host-local still holds.
func (n *node) leftovers(network string) error {
	if out, err := n.run("audit"); err != nil {
		return fmt.Errorf("audit: %s", out)
	}
	if entries, _ := os.ReadDir(n.path("flannel")); len(entries) > 0 {
		return fmt.Errorf("flannel's scratch folder still holds %s", entries[0].Name())
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
