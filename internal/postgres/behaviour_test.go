package postgres

import (
	"testing"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/storetest"
)

// TestBehaviour runs the behaviour suite that every store must pass.
func TestBehaviour(t *testing.T) {
	storetest.Run(t, func(t *testing.T) tenderbase.Store { return openTest(t) })
}
