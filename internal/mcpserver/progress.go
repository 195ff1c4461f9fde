package mcpserver

import (
	"context"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/stateproof/stateproof/internal/progress"
)

// DefaultProgressEvery is how often a tool call whose client gave a
// progress token is sent notifications/progress.
const DefaultProgressEvery = time.Second

// watchProgress returns the reporter of a tool call: one that sends the
// engine's snapshots to the client as notifications/progress at most
// every interval, when the request carries a progress token (_meta.
// progressToken), else nil, which the engines skip. stop ends the
// notifications; none is sent after it returns.
func (s *server) watchProgress(ctx context.Context, req *mcp.CallToolRequest) (rep progress.Reporter, stop func()) {
	if req == nil || req.Params == nil || req.Session == nil {
		return nil, func() {}
	}
	token := req.Params.GetProgressToken()
	if token == nil {
		return nil, func() {}
	}
	every := s.cfg.ProgressEvery
	if every <= 0 {
		every = DefaultProgressEvery
	}
	w := progress.NewWatch(every, every, func(t progress.Tick) {
		// The progress value must grow with every notification: the
		// seconds elapsed do, whatever the engine is at; the message says
		// what that is. A failed send (the client went away) only loses
		// the notification.
		_ = req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{
			ProgressToken: token, Progress: t.Elapsed.Seconds(), Message: t.Text()})
	})
	return w, w.Stop
}

// tracked is handler h of tool that tells srv.returned when it returns.
func tracked[In any](srv *server, tool string, h mcp.ToolHandlerFor[In, Report]) mcp.ToolHandlerFor[In, Report] {
	return func(ctx context.Context, req *mcp.CallToolRequest, in In) (*mcp.CallToolResult, Report, error) {
		res, out, err := h(ctx, req, in)
		if srv.returned != nil {
			srv.returned(tool, err)
		}
		return res, out, err
	}
}
