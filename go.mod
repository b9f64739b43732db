module github.com/tenderbase/tenderbase

go 1.26.8

require (
	github.com/blevesearch/snowballstem v0.9.0
	github.com/google/go-cmp v0.7.0
)
