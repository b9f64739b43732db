package fetch

import (
	"context"
	"fmt"
	"io"
	"mime"
	"net/http"
	"os"
	"path/filepath"
)

// Download sends r and writes the body of its 2xx response to a new file
// in dir, at most Config.MaxBytes of it unless r says otherwise, retrying
// as Fetch does; an attempt starts the file anew. A body
// shorter than the Content-Length announced, or one that fails r.Check, is
// a failed attempt: a connection cut in the middle never leaves half an
// archive behind. It returns the file's path and the name the publisher
// gave the file (Content-Disposition), or "" when it gave none.
func (c *Client) Download(ctx context.Context, r Request, dir string) (path, name string, err error) {
	f, err := os.CreateTemp(dir, "download-*")
	if err != nil {
		return "", "", fmt.Errorf("%s: %w", c.name, err)
	}
	defer func() {
		f.Close()
		if err != nil {
			os.Remove(f.Name())
		}
	}()
	err = c.do(ctx, r, func(resp *http.Response) error {
		name = fileName(resp.Header.Get("Content-Disposition"))
		return c.save(f, resp, r)
	})
	if err != nil {
		return "", "", err
	}
	return f.Name(), name, f.Close()
}

// save writes one response's body to f, from its start.
func (c *Client) save(f *os.File, resp *http.Response, r Request) error {
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return err
	}
	if err := f.Truncate(0); err != nil {
		return err
	}
	limit, setting := r.MaxBytes, ""
	if limit <= 0 {
		limit, setting = c.cfg.MaxBytes, c.setting()
	}
	if resp.ContentLength > limit {
		return finally(fmt.Errorf("the file has %d bytes, more than the %d taken%s", resp.ContentLength, limit, setting))
	}
	n, err := io.Copy(f, io.LimitReader(resp.Body, limit+1))
	if err != nil {
		return fmt.Errorf("download cut after %d bytes: %w", n, err)
	}
	if n > limit {
		return finally(fmt.Errorf("the file has more than the %d bytes taken%s", limit, setting))
	}
	if resp.ContentLength >= 0 && n != resp.ContentLength {
		return fmt.Errorf("download cut after %d of %d bytes", n, resp.ContentLength)
	}
	return checkBody(r, f, n)
}

// fileName returns the file name a Content-Disposition header gives, its
// base name only.
func fileName(disposition string) string {
	if disposition == "" {
		return ""
	}
	_, params, err := mime.ParseMediaType(disposition)
	if err != nil || params["filename"] == "" {
		return ""
	}
	return filepath.Base(filepath.Clean("/" + params["filename"]))
}
