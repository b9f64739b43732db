package torgiopen

import (
	"context"
	"fmt"
	"os"
)

// events imports a day's list itself when it names cancellations,
// annulments, stops or resumptions: the importer reads their entries as lot
// events (docs/torgi.md), which is all that is known of those documents,
// and does not download them. The list is imported on each run until its
// day is completed; the events met again are stored unchanged.
func (r *run) events(ctx context.Context, d day, objects []listObject, body []byte) error {
	n := 0
	for _, o := range objects {
		switch o.DocumentType {
		case "noticeCancel", "noticeAnnulment", "noticeStop", "noticeResumption":
			n++
		}
	}
	if n == 0 {
		return nil
	}
	f, err := os.CreateTemp(r.job.Spool(), "list-*")
	if err != nil {
		return err
	}
	_, err = f.Write(body)
	if err := firstErr(err, f.Close()); err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("daily list: %w", err)
	}
	_, err = r.job.Import(ctx, f.Name(), d.listFile(r.cfg.Structure))
	return err
}

func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
