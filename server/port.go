package server

import (
	"fmt"
	"net"
	"strconv"
)

// FreePort returns a TCP port on 127.0.0.1 that was free a moment ago. Another
// process can take it before the caller binds it: [Start] retries on another
// port when that happens.
func FreePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("find a free port: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// loopbackAddr returns "127.0.0.1:port".
func loopbackAddr(port int) string {
	return net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
}
