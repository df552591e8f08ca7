// cni-go-conflist: Go's libcni (what containerd 1.7 and cnitool are built
// on) loads the configs of conf-examples/ as a runtime does, with its own
// parser and its own CNI_PATH search, and runs a pod through them on an
// emulated node: ADD, CHECK with the result it cached, DEL, DEL again.
//
// Usage: cni-go-conflist <conf-examples> <subnet-env fixtures> <hnsctl> <plugin dir>...
package main

import (
	"fmt"
	"os"
)

func main() {
	if len(os.Args) < 5 {
		fmt.Fprintln(os.Stderr, "usage: cni-go-conflist <conf-examples> <subnet-env fixtures> <hnsctl> <plugin dir>...")
		os.Exit(2)
	}
	r := runner{examples: os.Args[1], subnetEnvs: os.Args[2], hnsctl: os.Args[3], pluginDirs: os.Args[4:]}
	failed := 0
	for _, e := range examples {
		if err := r.run(e); err != nil {
			failed++
			fmt.Printf("FAIL %s\n     %v\n", e.file, err)
		} else {
			fmt.Printf("ok   %s\n", e.file)
		}
	}
	fmt.Printf("%d examples, %d failed\n", len(examples), failed)
	if failed > 0 {
		os.Exit(1)
	}
}
