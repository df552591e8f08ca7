package main

// The runtime side of the conversation: Go's libcni invoke package runs the
// plugin the way containerd's CNI library does (CNI_* environment, config on
// stdin, the answer parsed from stdout), and the bytes the plugin printed are
// kept so that checks can compare them too.

import (
	"context"
	"encoding/json"
	"path/filepath"

	"github.com/containernetworking/cni/pkg/invoke"
	"github.com/containernetworking/cni/pkg/types"
	"github.com/containernetworking/cni/pkg/version"
)

// recordingExec is invoke's default Exec, remembering the last stdout.
type recordingExec struct {
	*invoke.RawExec
	version.PluginDecoder
	lastStdout []byte
}

func (e *recordingExec) ExecPlugin(ctx context.Context, pluginPath string, stdinData []byte, environ []string) ([]byte, error) {
	out, err := e.RawExec.ExecPlugin(ctx, pluginPath, stdinData, environ)
	e.lastStdout = out
	return out, err
}

type runtime struct {
	plugin string
	exec   *recordingExec
}

func newRuntime(plugin string) *runtime {
	return &runtime{plugin: plugin, exec: &recordingExec{RawExec: &invoke.RawExec{}}}
}

// args is what containerd passes for one pod attachment.
func (rt *runtime) args(command string) *invoke.Args {
	return &invoke.Args{
		Command:       command,
		ContainerID:   "0123abcd",
		NetNS:         "/var/run/netns/cni-go-peer",
		IfName:        "eth0",
		PluginArgsStr: "IgnoreUnknown=1;K8S_POD_NAMESPACE=default;K8S_POD_NAME=web-0",
		Path:          filepath.Dir(rt.plugin),
	}
}

// networkConfig is the conformance plugin's config in `cniVersion`, with
// `extra` keys added (the plugin reads prevResult, errorCode, ...).
func networkConfig(cniVersion string, extra map[string]interface{}) []byte {
	config := map[string]interface{}{"cniVersion": cniVersion, "name": "go-peer-net", "type": "wincni-conformance-plugin"}
	for key, value := range extra {
		config[key] = value
	}
	bytes, err := json.Marshal(config)
	if err != nil {
		panic(err)
	}
	return bytes
}

func (rt *runtime) versionInfo() (version.PluginInfo, error) {
	return invoke.GetVersionInfo(context.Background(), rt.plugin, rt.exec)
}

func (rt *runtime) add(config []byte) (types.Result, error) {
	return invoke.ExecPluginWithResult(context.Background(), rt.plugin, config, rt.args("ADD"), rt.exec)
}

func (rt *runtime) run(command string, config []byte) error {
	return invoke.ExecPluginWithoutResult(context.Background(), rt.plugin, config, rt.args(command), rt.exec)
}

func (rt *runtime) runWith(args *invoke.Args, config []byte) error {
	return invoke.ExecPluginWithoutResult(context.Background(), rt.plugin, config, args, rt.exec)
}
