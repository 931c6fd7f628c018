// The Go floor of the MCP benchmark (a benchmark fixture, not shipped): mark3labs/mcp-go's
// Streamable HTTP server offering the two tools the workloads call, with the same answers as the
// platform (platform_info's document; objstore_get_object's text content and attributes), behind a
// constant-time bearer check like ours, and nothing else (no personas, audit, metrics or logs):
// what an MCP request costs in Go with an empty path. Stateful sessions, as the platform's default.
package main

import (
	"context"
	"crypto/subtle"
	"flag"
	"log"
	"net/http"
	"os"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8090", "listen address")
	key := flag.String("key", "", "the bearer key every request must carry")
	object := flag.String("object", "", "the file objstore_get_object returns")
	bucket := flag.String("bucket", "bench", "the bucket name objstore_get_object reports")
	flag.Parse()

	s := server.NewMCPServer("agent-data-platform", "1.0.0", server.WithToolCapabilities(true))
	info := map[string]any{"name": "agent-data-platform", "version": "1.0.0", "description": "", "tags": []string{}, "agent_instructions": "", "toolkits": []any{}}
	s.AddTool(mcp.NewTool("platform_info", mcp.WithDescription("What this platform is and which toolkits it offers.")),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultJSON(info)
		})
	s.AddTool(mcp.NewTool("objstore_get_object",
		mcp.WithDescription("Read an object's content and attributes."),
		mcp.WithString("bucket", mcp.Required()),
		mcp.WithString("key", mcp.Required()),
	), func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		data, err := os.ReadFile(*object)
		if err != nil {
			return mcp.NewToolResultError(err.Error()), nil
		}
		return mcp.NewToolResultJSON(map[string]any{
			"connection": "files", "bucket": *bucket, "key": req.GetString("key", ""),
			"content": string(data), "is_base64": false, "size": len(data), "truncated": false,
			"content_type": "text/csv",
		})
	})

	mcpHandler := server.NewStreamableHTTPServer(s)
	want := []byte("Bearer " + *key)
	mux := http.NewServeMux()
	mux.HandleFunc("/readyz", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusOK) })
	mux.HandleFunc("/mcp", func(w http.ResponseWriter, r *http.Request) {
		if subtle.ConstantTimeCompare([]byte(strings.TrimSpace(r.Header.Get("Authorization"))), want) != 1 {
			http.Error(w, `{"jsonrpc":"2.0","error":{"code":-32000,"message":"Unauthorized"},"id":null}`, http.StatusUnauthorized)
			return
		}
		mcpHandler.ServeHTTP(w, r)
	})
	log.Fatal(http.ListenAndServe(*addr, mux))
}
