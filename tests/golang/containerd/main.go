// go-cni-containerd: containerd's own CNI library, go-cni (Debian's
// golang-github-containerd-go-cni-dev, over the CNI project's libcni 1.1, as
// in containerd 1.7), runs pods through every config of conf-examples/ on
// an emulated node, with the options, labels and capabilities containerd's
// CRI passes on a Windows node, and makes CRI's own checks on each result:
// the pod's IP on eth0, IPv4 first. Then Check, Remove, Remove again with
// no namespace (after a reboot), and the node must be clean. Built for
// Windows, the same program runs under Wine against the .exe files.
//
// Usage: go-cni-containerd <conf-examples> <subnet-env fixtures> <hnsctl>
//        <flannel> <win-bridge> <win-overlay> <host-local>
package main

import (
	"fmt"
	"os"
)

func main() {
	if len(os.Args) != 8 {
		fmt.Fprintln(os.Stderr, "usage: go-cni-containerd <conf-examples> <subnet-env fixtures> <hnsctl> "+
			"<flannel> <win-bridge> <win-overlay> <host-local>")
		os.Exit(2)
	}
	r := runner{examples: os.Args[1], subnetEnvs: os.Args[2], hnsctl: os.Args[3], plugins: map[string]string{
		"flannel": os.Args[4], "win-bridge": os.Args[5], "win-overlay": os.Args[6], "host-local": os.Args[7],
	}}
	failed := 0
	for _, e := range examples {
		if found, err := r.run(e); err != nil {
			failed++
			fmt.Printf("FAIL %s\n     %v\n", e.file, err)
		} else {
			fmt.Printf("ok   %s (eth0: %s)\n", e.file, found)
		}
	}
	if err := r.pickedConfig(); err != nil {
		failed++
		fmt.Printf("FAIL which config containerd picks\n     %v\n", err)
	} else {
		fmt.Printf("ok   which config containerd picks\n")
	}
	fmt.Printf("%d cases, %d failed\n", len(examples)+1, failed)
	if failed > 0 {
		os.Exit(1)
	}
}
