// cni-go-peer: Go's libcni (the library containerd, CRI-O and cnitool are
// built on) drives a plugin built on our libcni and checks what it reads.
//
// Usage: cni-go-peer <plugin>
package main

import (
	"fmt"
	"os"
	"path/filepath"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: cni-go-peer <plugin>")
		os.Exit(2)
	}
	plugin, err := filepath.Abs(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	rt := newRuntime(plugin)
	failed := 0
	for _, c := range checks {
		if err := c.run(rt); err != nil {
			failed++
			fmt.Printf("FAIL %s\n     %v\n", c.name, err)
		} else {
			fmt.Printf("ok   %s\n", c.name)
		}
	}
	fmt.Printf("%d checks, %d failed (Go library for CNI %s)\n", len(checks), failed, fmt.Sprint(goVersions()))
	if failed > 0 {
		os.Exit(1)
	}
}
