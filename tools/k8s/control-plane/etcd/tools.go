//go:build tools

// The command go-tool.sh builds from this module; the import keeps it in go.mod/go.sum.
package tools

import _ "go.etcd.io/etcd/server/v3"
