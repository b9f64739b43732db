//go:build ignore

// Makerar writes a RAR 5 archive whose members are stored, not compressed,
// following the format description that RARLAB publishes; no free program
// writes RAR. Its arguments are the archive to write and NAME=PATH pairs,
// each putting the file PATH into the archive as NAME.
//
//	go run makerar.go out.rar 'Техзадание.docx=docx.docx'
package main

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"log"
	"os"
	"strings"
)

func main() {
	if len(os.Args) < 3 {
		log.Fatal("usage: go run makerar.go ARCHIVE NAME=PATH...")
	}
	var out bytes.Buffer
	out.WriteString("Rar!\x1a\x07\x01\x00")
	out.Write(block(1, 0, 0, vint(0))) // main archive header, no flags
	for _, arg := range os.Args[2:] {
		name, path, ok := strings.Cut(arg, "=")
		if !ok {
			log.Fatalf("%q is not NAME=PATH", arg)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			log.Fatal(err)
		}
		out.Write(block(2, 0x0002, len(data), fileFields(name, data)))
		out.Write(data)
	}
	out.Write(block(5, 0, 0, vint(0))) // end of archive
	if err := os.WriteFile(os.Args[1], out.Bytes(), 0o644); err != nil {
		log.Fatal(err)
	}
}

// fileFields returns the fields of a file header for a stored file: CRC32
// present, Unix host, mode 0644.
func fileFields(name string, data []byte) []byte {
	var f []byte
	f = append(f, vint(0x0004)...) // file flags: data CRC32 present
	f = append(f, vint(uint64(len(data)))...)
	f = append(f, vint(0o100644)...)
	f = binary.LittleEndian.AppendUint32(f, crc32.ChecksumIEEE(data))
	f = append(f, vint(0)...) // compression: version 0, method 0 (store)
	f = append(f, vint(1)...) // host OS: Unix
	f = append(f, vint(uint64(len(name)))...)
	return append(f, name...)
}

// block returns a block header of type typ whose own fields are fields; a
// dataSize above zero is written when flags has 0x0002 (data area follows).
func block(typ, flags uint64, dataSize int, fields []byte) []byte {
	var h []byte
	h = append(h, vint(typ)...)
	h = append(h, vint(flags)...)
	if flags&0x0002 != 0 {
		h = append(h, vint(uint64(dataSize))...)
	}
	h = append(h, fields...)
	sized := append(vint(uint64(len(h))), h...)
	return append(binary.LittleEndian.AppendUint32(nil, crc32.ChecksumIEEE(sized)), sized...)
}

// vint encodes v as RAR 5 does: seven bits a byte, low bits first, the high
// bit set on every byte but the last.
func vint(v uint64) []byte {
	var b []byte
	for v >= 0x80 {
		b = append(b, byte(v)|0x80)
		v >>= 7
	}
	return append(b, byte(v))
}
