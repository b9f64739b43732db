#!/bin/sh
# make.sh writes the fixtures of package doctext: small documents in every
# format the package reads (and the legacy ones it refuses), each holding
# Russian procurement text and one word of its own, so that a test can tell
# which file a word came from.
#
# It needs LibreOffice (Writer and Calc), 7-Zip, Info-ZIP zip, iconv, python3
# (the standard library only) and Go:
#
#	apt-get install -y --no-install-recommends libreoffice-writer \
#		libreoffice-calc 7zip zip fonts-dejavu-core
#	cd internal/doctext/testdata && sh make.sh
#
# No RAR writer is free software, so rar.rar is written by makerar.go: a
# RAR 5 archive with stored (uncompressed) members, made by hand from the
# published format description.
set -eu
cd "$(dirname "$0")"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# page writes a flat OpenDocument text whose body is the common text and
# the word $1: a heading, two paragraphs and a table.
page() {
	cat <<FODT
<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"
 xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"
 xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0"
 office:version="1.2" office:mimetype="application/vnd.oasis.opendocument.text">
<office:body><office:text>
<text:h text:outline-level="1">Техническое задание на поставку картриджей</text:h>
<text:p>Заказчик: ГБУЗ «Городская клиническая больница № 3». Закупка № 0373200000124000001.</text:p>
<text:p>Поставщик обязан поставить картриджи для лазерных принтеров в количестве 120 штук и выполнить работы: $1.</text:p>
<table:table table:name="Спецификация"><table:table-column table:number-columns-repeated="2"/>
<table:table-row><table:table-cell><text:p>Наименование</text:p></table:table-cell><table:table-cell><text:p>Количество</text:p></table:table-cell></table:table-row>
<table:table-row><table:table-cell><text:p>Картридж лазерный</text:p></table:table-cell><table:table-cell><text:p>120</text:p></table:table-cell></table:table-row>
</table:table>
</office:text></office:body></office:document>
FODT
}

convert() { # convert FORMAT SOURCE: LibreOffice writes SOURCE as FORMAT into $work
	soffice --headless --convert-to "$1" --outdir "$work" "$2" >/dev/null 2>&1
}

page "прокладка кабеля волоконно-оптический" >"$work/pdf.fodt"
page "гидроизоляция кровли" >"$work/docx.fodt"
page "виброизоляция фундамента" >"$work/odt.fodt"
page "шумоизоляция стен" >"$work/rtf.fodt"
page "теплоизоляция труб" >"$work/doc.fodt"
convert 'pdf:writer_pdf_Export' "$work/pdf.fodt"
convert 'docx:MS Word 2007 XML' "$work/docx.fodt"
convert 'odt:writer8' "$work/odt.fodt"
convert 'rtf:Rich Text Format' "$work/rtf.fodt"
convert 'doc:MS Word 97' "$work/doc.fodt"
cp "$work/pdf.pdf" pdf.pdf
cp "$work/docx.docx" docx.docx
cp "$work/odt.odt" odt.odt
cp "$work/rtf.rtf" rtf.rtf
cp "$work/doc.doc" doc.doc

# locked.pdf needs a password to be opened; restricted.pdf only to be
# changed, which readers of text do not ask for.
note() { # note TEXT: a flat OpenDocument text of one paragraph
	printf '%s\n' '<?xml version="1.0" encoding="UTF-8"?>' \
		'<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"' \
		' xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"' \
		' office:version="1.2" office:mimetype="application/vnd.oasis.opendocument.text">' \
		"<office:body><office:text><text:p>$1</text:p></office:text></office:body></office:document>"
}
note 'Секретно' >"$work/locked.fodt"
note 'Только чтение: пароизоляция' >"$work/restricted.fodt"
convert 'pdf:writer_pdf_Export:{"EncryptFile":{"type":"boolean","value":"true"},"DocumentOpenPassword":{"type":"string","value":"secret"}}' "$work/locked.fodt"
convert 'pdf:writer_pdf_Export:{"RestrictPermissions":{"type":"boolean","value":"true"},"PermissionPassword":{"type":"string","value":"owner"},"Changes":{"type":"long","value":"0"}}' "$work/restricted.fodt"
cp "$work/locked.pdf" locked.pdf
cp "$work/restricted.pdf" restricted.pdf

sheet() { # sheet WORD: a price list as CSV with the word $1 in it
	printf '%s\n' 'Наименование,Количество,Цена' \
		"Тонер-картридж ($1),120,\"4 500,00\"" \
		'Техническое задание на поставку картриджей,1,0'
}
sheet 'тонер-картридж' >"$work/xlsx.csv"
sheet 'фотобарабан' >"$work/ods.csv"
sheet 'девелопер' >"$work/xls.csv"
# 76 is UTF-8 in LibreOffice's CSV filter options.
csv() { soffice --headless --infilter='CSV:44,34,76' --convert-to "$1" --outdir "$work" "$2" >/dev/null 2>&1; }
csv 'xlsx:Calc MS Excel 2007 XML' "$work/xlsx.csv"
csv 'ods:calc8' "$work/ods.csv"
csv 'xls:MS Excel 97' "$work/xls.csv"
cp "$work/xlsx.xlsx" xlsx.xlsx
cp "$work/ods.ods" ods.ods
cp "$work/xls.xls" xls.xls

# rtf1251.rtf is RTF as older Word writes it for Russian: code page 1251
# declared by \ansicpg1251 and by the font's \fcharset204, every Cyrillic
# letter a \'xx escape.
python3 - >rtf1251.rtf <<'PY'
text = "Техническое задание на поставку картриджей. Пароизоляция чердака."
body = "".join(c if ord(c) < 128 else "\\'%02x" % c.encode("cp1251")[0] for c in text)
print("{\\rtf1\\ansi\\ansicpg1251\\deff0{\\fonttbl{\\f0\\froman\\fcharset204 Times New Roman;}}"
      "{\\info{\\title \\'d1\\'eb\\'f3\\'e6\\'e5\\'e1\\'ed\\'ee\\'e5}}"
      "\\pard\\f0\\fs24 " + body + "\\par\n"
      "{\\*\\generator Hand made;}\\'c8\\'f2\\'ee\\'e3\\'ee: 120 \\'f8\\'f2.\\tab 4\\~500\\par}")
PY

# zip866.zip is a zip as Windows' own compressor writes it: member names
# in the OEM code page 866, without the UTF-8 flag.
mkdir "$work/866"
cp docx.docx "$work/866/$(printf 'Техзадание.docx' | iconv -t cp866)"
(cd "$work/866" && LC_ALL=C zip -X -q ../zip866.zip ./*)
cp "$work/zip866.zip" zip866.zip

# ziputf8.zip names its members in UTF-8 with the flag set, and holds a
# 7z archive, a picture that is no document and a PDF cut short, so that
# one archive shows nesting and the members it skips.
mkdir "$work/utf8"
cp odt.odt "$work/utf8/Проект контракта.odt"
cp rtf.rtf "$work/utf8/Обоснование цены.rtf"
7zz a -bd -bso0 "$work/utf8/Приложения.7z" "$work/utf8/Проект контракта.odt" rtf1251.rtf
head -c 1500 pdf.pdf >"$work/utf8/Испорченный.pdf"
printf '\211PNG\r\n\032\n\0\0\0\rIHDR\0\0\0\1\0\0\0\1\10\6\0\0\0\37\25\304\211' >"$work/utf8/Схема.png"
(cd "$work/utf8" && 7zz a -bd -bso0 -tzip -mcu=on ../ziputf8.zip ./*)
cp "$work/ziputf8.zip" ziputf8.zip

# 7z.7z holds a PDF and a spreadsheet, LZMA2-compressed and solid.
7zz a -bd -bso0 -ms=on "$work/7z.7z" pdf.pdf xlsx.xlsx
cp "$work/7z.7z" 7z.7z

go run makerar.go rar.rar "Техзадание.docx=docx.docx" "Смета.ods=ods.ods"
