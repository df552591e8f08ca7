package main

// The checks: each one is a conversation a Go runtime has with the plugin,
// and the plugin's answers as Go's library reads them.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"

	"github.com/containernetworking/cni/pkg/types"
	types100 "github.com/containernetworking/cni/pkg/types/100"
	"github.com/containernetworking/cni/pkg/version"
)

type check struct {
	name string
	run  func(rt *runtime) error
}

var checks = []check{
	{"VERSION lists every version this Go library knows", checkVersionInfo},
	{"ADD output parses in every version Go knows, with the expected content", checkAddResults},
	{"a prevResult written by Go comes back unchanged", checkPrevResultPassThrough},
	{"DEL in every version, CHECK from 0.4.0 on, CHECK on 0.3.1 refused with code 1", checkDelAndCheck},
	{"errors reach Go with their code, msg and details", checkErrors},
}

// goVersions are the spec versions this Go library can parse results of.
func goVersions() []string { return version.All.SupportedVersions() }

func checkVersionInfo(rt *runtime) error {
	info, err := rt.versionInfo()
	if err != nil {
		return err
	}
	claimed := map[string]bool{}
	for _, v := range info.SupportedVersions() {
		claimed[v] = true
	}
	for _, v := range append(goVersions(), version.Current()) {
		if !claimed[v] {
			return fmt.Errorf("the plugin does not claim %s; it claims %v", v, info.SupportedVersions())
		}
	}
	return nil
}

// asCurrent converts through Go's own converters to its newest result type
// and marshals that: two results with the same content give the same bytes.
func asCurrent(result types.Result) ([]byte, error) {
	current, err := types100.NewResultFromResult(result)
	if err != nil {
		return nil, err
	}
	return json.Marshal(current)
}

func checkAddResults(rt *runtime) error {
	for _, v := range goVersions() {
		result, err := rt.add(networkConfig(v, nil))
		if err != nil {
			return fmt.Errorf("%s: %w", v, err)
		}
		if result.Version() != v {
			return fmt.Errorf("%s: the result is version %q", v, result.Version())
		}
		// Re-parse the printed bytes the way a plugin reads prevResult.
		if _, err := version.NewResult(v, rt.exec.lastStdout); err != nil {
			return fmt.Errorf("%s: version.NewResult: %w", v, err)
		}
		// The expected content, taken down to v and back up by Go itself, so
		// that what v cannot express is dropped on both sides alike.
		expectedAtV, err := expectedResult().GetAsVersion(v)
		if err != nil {
			return fmt.Errorf("%s: converting the expectation: %w", v, err)
		}
		want, err := asCurrent(expectedAtV)
		if err != nil {
			return err
		}
		got, err := asCurrent(result)
		if err != nil {
			return fmt.Errorf("%s: converting the plugin's result: %w", v, err)
		}
		if !bytes.Equal(got, want) {
			return fmt.Errorf("%s: Go reads\n  %s\nwant\n  %s\nfrom\n  %s", v, got, want, rt.exec.lastStdout)
		}
	}
	return nil
}

func sameJSON(a, b []byte) (bool, error) {
	var x, y interface{}
	if err := json.Unmarshal(a, &x); err != nil {
		return false, err
	}
	if err := json.Unmarshal(b, &y); err != nil {
		return false, err
	}
	return reflect.DeepEqual(x, y), nil
}

// expectedResultJSON is the expected result as Go writes it in version v,
// the prevResult a runtime would send.
func expectedResultJSON(v string) ([]byte, error) {
	result, err := expectedResult().GetAsVersion(v)
	if err != nil {
		return nil, err
	}
	return json.Marshal(result)
}

func checkPrevResultPassThrough(rt *runtime) error {
	for _, v := range goVersions() {
		prevJSON, err := expectedResultJSON(v)
		if err != nil {
			return err
		}
		config := networkConfig(v, map[string]interface{}{"prevResult": json.RawMessage(prevJSON)})
		if _, err := rt.add(config); err != nil {
			return fmt.Errorf("%s: %w", v, err)
		}
		same, err := sameJSON(rt.exec.lastStdout, prevJSON)
		if err != nil {
			return fmt.Errorf("%s: %w", v, err)
		}
		if !same {
			return fmt.Errorf("%s: prevResult\n  %s\ncame back as\n  %s", v, prevJSON, rt.exec.lastStdout)
		}
	}
	return nil
}

// cniError is the *types.Error inside err, or an error saying there is none.
func cniError(err error) (*types.Error, error) {
	var e *types.Error
	if err == nil {
		return nil, fmt.Errorf("the plugin succeeded")
	}
	if !errors.As(err, &e) {
		return nil, fmt.Errorf("not a CNI error: %v", err)
	}
	return e, nil
}

func expectCode(what string, err error, code uint, msg string) error {
	e, problem := cniError(err)
	if problem != nil {
		return fmt.Errorf("%s: %w", what, problem)
	}
	if e.Code != code || (msg != "" && e.Msg != msg) {
		return fmt.Errorf("%s: got code %d %q (%q), want code %d %q", what, e.Code, e.Msg, e.Details, code, msg)
	}
	return nil
}

func checkDelAndCheck(rt *runtime) error {
	for _, v := range goVersions() {
		if err := rt.run("DEL", networkConfig(v, nil)); err != nil {
			return fmt.Errorf("DEL %s: %w", v, err)
		}
		if gte, _ := version.GreaterThanOrEqualTo(v, "0.4.0"); !gte {
			continue
		}
		prevJSON, err := expectedResultJSON(v)
		if err != nil {
			return err
		}
		if err := rt.run("CHECK", networkConfig(v, map[string]interface{}{"prevResult": json.RawMessage(prevJSON)})); err != nil {
			return fmt.Errorf("CHECK %s: %w", v, err)
		}
	}
	return expectCode("CHECK 0.3.1", rt.run("CHECK", networkConfig("0.3.1", nil)), 1, "config version does not allow CHECK")
}

func checkErrors(rt *runtime) error {
	failing := map[string]interface{}{"errorCode": 11, "errorMsg": "try again later", "errorDetails": "HNS is restarting"}
	_, err := rt.add(networkConfig("1.0.0", failing))
	e, problem := cniError(err)
	if problem != nil {
		return fmt.Errorf("handler error: %w", problem)
	}
	if e.Code != 11 || e.Msg != "try again later" || e.Details != "HNS is restarting" {
		return fmt.Errorf("handler error: got %+v", *e)
	}

	if err := expectCode("bad network name", rt.run("DEL", networkConfig("1.0.0", map[string]interface{}{"name": "te%%st"})),
		7, "invalid characters found in network name"); err != nil {
		return err
	}
	if err := expectCode("unsupported version", rt.run("DEL", networkConfig("2.0.0", nil)), 1,
		"incompatible CNI versions"); err != nil {
		return err
	}
	badID := rt.args("DEL")
	badID.ContainerID = "some-%%container-id"
	return expectCode("bad container ID", rt.runWith(badID, networkConfig("1.0.0", nil)), 4,
		"invalid characters in containerID")
}
