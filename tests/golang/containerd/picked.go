package main

// Which of two configs containerd runs: go-cni sorts the folder's .conf,
// .conflist and .json files by name and, with CRI's max_conf_num of 1, loads
// the first. sig-windows-tools' 10-flannel.conf sorts before the installer's
// 10-flannel.conflist, which is why wincni-install warns about it
// (docs/installer.md).

import (
	"fmt"
	"os"
	"path/filepath"
)

func (r runner) pickedConfig() error {
	n, err := newNode(r.hnsctl)
	if err != nil {
		return err
	}
	defer n.remove()
	for file, example := range map[string]string{
		"10-flannel.conf":     "win-bridge-sdnbridge.conf",
		"10-flannel.conflist": "flannel-host-gw.conflist",
	} {
		text, err := os.ReadFile(filepath.Join(r.examples, example))
		if err != nil {
			return err
		}
		if err := os.WriteFile(n.path("conf", file), text, 0o644); err != nil {
			return err
		}
	}
	cni, err := containerdCNI(n)
	if err != nil {
		return err
	}
	networks := cni.GetConfig().Networks
	if len(networks) != 1 {
		return fmt.Errorf("go-cni loaded %d networks; want 1", len(networks))
	}
	network := networks[0]
	if network.IFName != "eth0" || len(network.Config.Plugins) != 1 {
		return fmt.Errorf("go-cni loaded %s with %d plugins for %s", network.Config.Source, len(network.Config.Plugins),
			network.IFName)
	}
	if got := network.Config.Plugins[0].Network.Type; got != "sdnbridge" {
		return fmt.Errorf("go-cni picked the config of type %q; want 10-flannel.conf's sdnbridge", got)
	}
	return nil
}
