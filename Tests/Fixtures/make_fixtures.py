#!/usr/bin/env python3
"""Writes the small fixtures the SheetStream tests read (a developer tool, not a runtime need).

Real producers: openpyxl, xlsxwriter (shared and constant_memory inline strings, 1904 dates),
LibreOffice (soffice --headless --convert-to xlsx) and Info-ZIP streaming zip (data descriptors).
Hand-made zips: zip64, stored entries, archive comment, CRC mismatch, zip bombs, truncated and
hostile XML parts. Run from this folder: python3 make_fixtures.py
"""
import datetime
import io
import os
import shutil
import struct
import subprocess
import tempfile
import zipfile
import zlib

import openpyxl
import xlsxwriter

HERE = os.path.dirname(os.path.abspath(__file__))


def path(name):
    return os.path.join(HERE, name)


def openpyxl_sales_audit():
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Sales Audit"
    ws.append(["Sales Audit Report"])
    ws.append(["Run: 07/16/2025 5:02 AM"])
    ws.append([])
    ws.append(["Store", "Business Date", "Net Sales", "Transactions", "Items", "CCP %", "GP %"])
    rows = [
        ("08", datetime.date(2025, 7, 14), 1234.5, 10, 25, 0.452, 0.51),
        ("10", datetime.datetime(2025, 7, 15, 13, 45), 987.25, 7, 11, 0.3, 0.48),
        ("Store 8 Natick", "7/15/2025", "$1,234.56", "12", "30", "45.2%", "51"),
    ]
    for row in rows:
        ws.append(list(row))
    for cell in ws["F"][4:] + ws["G"][4:]:
        cell.number_format = "0.0%"
    ws.append(["Total", None, "=SUM(C5:C7)", 29, 66])
    ws.append([True, False, None, None, "_x000D_ literal", "tab\there"])
    hidden = wb.create_sheet("Hidden Notes")
    hidden.sheet_state = "hidden"
    hidden.append(["note"])
    wb.save(path("openpyxl_sales_audit.xlsx"))


def xlsxwriter_book(name, **options):
    wb = xlsxwriter.Workbook(path(name), options)
    ws = wb.add_worksheet("Calls")
    date_format = wb.add_format({"num_format": "yyyy-mm-dd"})
    time_format = wb.add_format({"num_format": "hh:mm:ss"})
    duration_format = wb.add_format({"num_format": "[h]:mm"})
    percent_format = wb.add_format({"num_format": "0.0%"})
    ws.write_row(0, 0, ["Location", "Call Date", "Start Time", "Talk", "Answered %", "Notes"])
    ws.write_string(1, 0, "Hannoush Jewelers - Natick")
    ws.write_datetime(1, 1, datetime.datetime(2024, 2, 29), date_format)
    ws.write_datetime(1, 2, datetime.time(9, 30, 15), time_format)
    ws.write_number(1, 3, 1.5, duration_format)
    ws.write_number(1, 4, 0.875, percent_format)
    ws.write_string(1, 5, "  spaced  ")
    ws.write_string(2, 0, "08")
    ws.write_datetime(2, 1, datetime.datetime(1900, 1, 1), date_format)
    ws.write_formula(2, 3, "=1+1", None, 2)
    ws.write_boolean(2, 4, True)
    ws.write_string(4, 0, "after gap")
    wb.close()


def libreoffice_conversion():
    with tempfile.TemporaryDirectory() as work:
        source = os.path.join(work, "libreoffice_credit.csv")
        with open(source, "w", encoding="utf-8") as handle:
            handle.write("Store,Application Date,Applicant\n08,2025-07-14,A. Person\n10,2025-07-15,B. Person\n")
        subprocess.run(
            ["soffice", "--headless", "--convert-to", "xlsx", "--outdir", work, source],
            check=True, capture_output=True, timeout=180,
        )
        shutil.copy(os.path.join(work, "libreoffice_credit.xlsx"), path("libreoffice_credit.xlsx"))


def data_descriptor_copy():
    """Re-zips the openpyxl workbook with Info-ZIP writing to a pipe, which uses data descriptors."""
    with tempfile.TemporaryDirectory() as work:
        with zipfile.ZipFile(path("openpyxl_sales_audit.xlsx")) as source:
            source.extractall(work)
        names = sorted(
            os.path.relpath(os.path.join(root, f), work) for root, _, files in os.walk(work) for f in files
        )
        names.remove("[Content_Types].xml")
        zipped = subprocess.run(["zip", "-q", "-X", "-", "[Content_Types].xml", *names],
                                cwd=work, check=True, capture_output=True).stdout
    with open(path("data_descriptors.xlsx"), "wb") as handle:
        handle.write(zipped)
    assert zipped[6] & 0x08, "expected the data-descriptor flag"


MINIMAL_PARTS = {
    "[Content_Types].xml": '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
    '<Default Extension="xml" ContentType="application/xml"/>'
    '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>'
    "</Types>",
    "_rels/.rels": '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
    '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>',
    "xl/workbook.xml": '<?xml version="1.0"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
    'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>',
    "xl/_rels/workbook.xml.rels": '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
    '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>'
    '<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/></Relationships>',
    "xl/sharedStrings.xml": '<?xml version="1.0"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><si><t>only</t></si></sst>',
    "xl/worksheets/sheet1.xml": '<?xml version="1.0"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
    '<sheetData><row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1"><v>42</v></c></row></sheetData></worksheet>',
}


def minimal(name, overrides=None, compression=zipfile.ZIP_DEFLATED, comment=b"", force_zip64=False):
    parts = dict(MINIMAL_PARTS)
    parts.update(overrides or {})
    with zipfile.ZipFile(path(name), "w", compression=compression) as archive:
        archive.comment = comment
        for part, text in parts.items():
            data = text.encode() if isinstance(text, str) else text
            with archive.open(part, "w", force_zip64=force_zip64) as handle:
                handle.write(data)


def patch(name, source, find, replace):
    data = open(path(source), "rb").read()
    assert data.count(find) >= 1, (name, find)
    open(path(name), "wb").write(data.replace(find, replace, 1))


def corrupt_crc(name):
    data = bytearray(open(path("minimal_stored.xlsx"), "rb").read())
    offset = data.index(b"<v>42</v>")
    data[offset + 3] = ord("7")  # 42 -> 72 in the stored sheet data, so the CRC no longer matches
    open(path(name), "wb").write(bytes(data))


def bomb(name, declared_ratio_lie=False):
    """A sheet of 64 MiB of spaces inside the worksheet: ratio ~1000:1."""
    payload = b'<?xml version="1.0"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>'
    payload += b" " * (64 << 20) + b"</sheetData></worksheet>"
    minimal(name, {"xl/worksheets/sheet1.xml": payload})
    if declared_ratio_lie:
        # Claim the entry inflates to only 1 KiB: the reader must stop right after 1 KiB.
        data = bytearray(open(path(name), "rb").read())
        real = struct.pack("<I", len(payload))
        fake = struct.pack("<I", 1024)
        data = data.replace(real, fake)
        open(path(name), "wb").write(bytes(data))


def worksheet_xml_fixtures():
    """Worksheets for the XML scanner: another encoding (read by libxml2), prefixed names with
    every markup kind, and a DOCTYPE."""
    latin1 = ('<?xml version="1.0" encoding="ISO-8859-1"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
              '<sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>Caf\u00e9</t></is></c><c r="B1"><v>7</v></c></row></sheetData></worksheet>')
    minimal("latin1_sheet.xlsx", {"xl/worksheets/sheet1.xml": latin1.encode("latin-1")})
    prefixed = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n<!-- written by hand -->'
                '<x:worksheet xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:mc="urn:mc">'
                '<?app hint?><x:sheetData>\r\n  <x:row r=\'1\'>'
                '<x:c r="A1" t="inlineStr"><x:is><x:t xml:space="preserve">a &amp; b &lt;c&gt; &#x263A;&#65;\r\nnext</x:t></x:is></x:c>'
                '<x:c r="B1" t="inlineStr"><x:is><x:t><![CDATA[<raw> & ]]></x:t></x:is></x:c>'
                '<x:c r="C1" ><x:v >12.5</x:v ></x:c>'
                '<x:c r="D1" t="s"><x:v>0</x:v></x:c><x:c r="E1" t="inlineStr"/></x:row>'
                '<x:row r="3"><x:c r="B3" t="str"><x:f>A1&amp;"!"</x:f><x:v>a &amp; b!</x:v></x:c></x:row>'
                '</x:sheetData></x:worksheet>')
    minimal("prefixed_sheet.xlsx", {"xl/worksheets/sheet1.xml": prefixed})
    doctype = ('<?xml version="1.0"?><!DOCTYPE worksheet [<!ENTITY lol "lol">]>'
               '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1">'
               '<c r="A1" t="inlineStr"><is><t>&lol;</t></is></c></row></sheetData></worksheet>')
    minimal("doctype_sheet.xlsx", {"xl/worksheets/sheet1.xml": doctype})


def main():
    openpyxl_sales_audit()
    xlsxwriter_book("xlsxwriter_shared.xlsx")
    xlsxwriter_book("xlsxwriter_constant_memory.xlsx", constant_memory=True)
    xlsxwriter_book("xlsxwriter_1904.xlsx", date_1904=True)
    libreoffice_conversion()
    data_descriptor_copy()
    minimal("minimal_deflate.xlsx")
    minimal("minimal_stored.xlsx", compression=zipfile.ZIP_STORED)
    minimal("minimal_comment.xlsx", comment=b"archive comment PK\x05\x06 with a fake signature")
    minimal("minimal_zip64.xlsx", force_zip64=True)
    corrupt_crc("crc_mismatch.xlsx")
    bomb("bomb_ratio.xlsx")
    bomb("bomb_lying_size.xlsx", declared_ratio_lie=True)
    data = open(path("minimal_deflate.xlsx"), "rb").read()
    open(path("truncated.xlsx"), "wb").write(data[: len(data) // 2])
    open(path("not_a_zip.xlsx"), "wb").write(b"Store,Date\n08,2025-07-15\n")
    laughs = '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">' + "".join(
        f'<!ENTITY lol{i} "' + f"&lol{i - 1};" * 10 + '">' for i in range(3, 10)) + ']><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><si><t>&lol9;</t></si></sst>'
    minimal("billion_laughs.xlsx", {"xl/sharedStrings.xml": laughs})
    xxe = '<?xml version="1.0"?><!DOCTYPE sst [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><si><t>&xxe;</t></si></sst>'
    minimal("external_entity.xlsx", {"xl/sharedStrings.xml": xxe})
    minimal("shared_string_out_of_range.xlsx", {"xl/worksheets/sheet1.xml": MINIMAL_PARTS["xl/worksheets/sheet1.xml"].replace("<v>0</v>", "<v>5</v>")})
    minimal("malformed_sheet.xlsx", {"xl/worksheets/sheet1.xml": MINIMAL_PARTS["xl/worksheets/sheet1.xml"].replace("</row>", "</rowx>")})
    worksheet_xml_fixtures()
    minimal("encrypted_entry_flag.xlsx")
    data = bytearray(open(path("encrypted_entry_flag.xlsx"), "rb").read())
    # Set the encryption bit of every central directory entry.
    position = 0
    while True:
        position = data.find(b"PK\x01\x02", position)
        if position < 0:
            break
        data[position + 8] |= 1
        position += 4
    open(path("encrypted_entry_flag.xlsx"), "wb").write(bytes(data))


if __name__ == "__main__":
    main()
