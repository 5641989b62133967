package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
)

// containerInfo holds the fields of "docker inspect" that a restart needs.
type containerInfo struct {
	Name  string
	Path  string   // the command's executable (often the entrypoint)
	Args  []string // the command's arguments
	State struct {
		Running bool
	}
	Config struct {
		WorkingDir string
	}
	HostConfig struct {
		NetworkMode string
	}
	NetworkSettings struct {
		Ports map[string][]struct {
			HostIP   string `json:"HostIp"`
			HostPort string
		}
	}
}

// inspect returns what docker knows of a container.
func (d docker) inspect(ctx context.Context, container string) (*containerInfo, error) {
	out, err := d.run(ctx, nil, "inspect", "--type", "container", "--format", "{{json .}}", container)
	if err != nil {
		return nil, err
	}
	var ci containerInfo
	if err := json.Unmarshal([]byte(out), &ci); err != nil {
		return nil, fmt.Errorf("docker inspect %s: %w", container, err)
	}
	return &ci, nil
}

// arg returns the value of the server option --name on the container's
// command line, or def. It does not see a configuration file's settings.
func (ci *containerInfo) arg(name, def string) string {
	args := append([]string{ci.Path}, ci.Args...)
	for i, a := range args[:len(args)-1] {
		if a == "--"+name {
			return args[i+1]
		}
	}
	return def
}

// addr returns the loopback address at which the host reaches the
// container's port: the port itself with host networking, else the host port
// that publishes it on 127.0.0.1 or on every address.
func (ci *containerInfo) addr(port string) (string, error) {
	if ci.HostConfig.NetworkMode == "host" {
		return net.JoinHostPort("127.0.0.1", port), nil
	}
	for _, b := range ci.NetworkSettings.Ports[port+"/tcp"] {
		switch b.HostIP {
		case "", "0.0.0.0", "::", "127.0.0.1":
			return net.JoinHostPort("127.0.0.1", b.HostPort), nil
		}
	}
	return "", fmt.Errorf("container port %s/tcp is not published on 127.0.0.1", port)
}
