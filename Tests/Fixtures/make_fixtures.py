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
import warnings
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


SHEET_HEAD = '<?xml version="1.0"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>'
SHEET_TAIL = "</sheetData></worksheet>"
RELATIONSHIP_TYPE = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/"


def sheets_workbook(name, sheets, shared_strings=None):
    """A workbook of (sheet name, relationship kind, part XML) triples in order: worksheets and chart sheets."""
    workbook = ('<?xml version="1.0"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
                'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets>')
    relationships = '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
    parts = {}
    for number, (sheet, kind, xml) in enumerate(sheets, start=1):
        workbook += f'<sheet name="{sheet}" sheetId="{number}" r:id="rId{number}"/>'
        target = f"{kind}s/sheet{number}.xml"
        relationships += f'<Relationship Id="rId{number}" Type="{RELATIONSHIP_TYPE}{kind}" Target="{target}"/>'
        parts["xl/" + target] = xml
    workbook = (workbook + "</sheets></workbook>").replace("<sheets></sheets>", "<sheets/>")
    if shared_strings is not None:
        relationships += f'<Relationship Id="rIdS" Type="{RELATIONSHIP_TYPE}sharedStrings" Target="sharedStrings.xml"/>'
        parts["xl/sharedStrings.xml"] = ('<?xml version="1.0"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
                                         + "".join(f"<si><t>{text}</t></si>" for text in shared_strings) + "</sst>")
    relationships += "</Relationships>"
    with zipfile.ZipFile(path(name), "w") as archive:
        write_entry(archive, "[Content_Types].xml", MINIMAL_PARTS["[Content_Types].xml"])
        write_entry(archive, "_rels/.rels", MINIMAL_PARTS["_rels/.rels"])
        write_entry(archive, "xl/workbook.xml", workbook)
        write_entry(archive, "xl/_rels/workbook.xml.rels", relationships)
        for part, xml in parts.items():
            write_entry(archive, part, xml)


def write_entry(archive, name, text):
    """A deflated entry with a fixed date, so that the fixture's bytes do not change from run to run."""
    archive.writestr(zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0)), text, compress_type=zipfile.ZIP_DEFLATED)


def duplicate_part(name, second_name):
    """The minimal workbook plus a second entry whose name equals the worksheet's (or equals it
    ignoring case): OPC forbids both (ECMA-376 Part 2, §9.1.1.1)."""
    minimal(name)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # zipfile warns of the duplicate name, which is the point
        with zipfile.ZipFile(path(name), "a") as archive:
            write_entry(archive, second_name, SHEET_HEAD + '<row r="1"><c r="A1"><v>7</v></c></row>' + SHEET_TAIL)


def other_tools_fixtures():
    """Issue 20: workbooks written by other tools (and fuzzers) that the reader once misread."""
    escapes = "a_X0041_b _x0041_ _x004a_ _X000D_"
    sheets_workbook("escape_capital_x.xlsx", [
        ("S", "worksheet", SHEET_HEAD + f'<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="inlineStr"><is><t>{escapes}</t></is></c>'
         f'<c r="C1" t="str"><f>A1</f><v>{escapes}</v></c></row>' + SHEET_TAIL),
    ], shared_strings=[escapes])
    cell = '<c><v>1</v></c>'
    sheets_workbook("row_and_cell_references_out_of_range.xlsx", [
        ("Fuzzed row", "worksheet", SHEET_HEAD + f'<row r="1">{cell}</row><row r="231999999999940">{cell}</row>' + SHEET_TAIL),
        ("Row 0", "worksheet", SHEET_HEAD + f'<row r="0">{cell}</row>' + SHEET_TAIL),
        ("Past last row", "worksheet", SHEET_HEAD + f'<row r="1048576">{cell}</row><row>{cell}</row>' + SHEET_TAIL),
        ("Row not a number", "worksheet", SHEET_HEAD + f'<row r="1x">{cell}</row>' + SHEET_TAIL),
        ("Cell A0", "worksheet", SHEET_HEAD + '<row r="1"><c r="A0"><v>1</v></c></row>' + SHEET_TAIL),
        ("Cell past XFD", "worksheet", SHEET_HEAD + '<row r="1"><c r="XFE1"><v>1</v></c></row>' + SHEET_TAIL),
        ("Cell past last row", "worksheet", SHEET_HEAD + '<row r="1"><c r="B1048577"><v>1</v></c></row>' + SHEET_TAIL),
        ("Decreasing rows", "worksheet", SHEET_HEAD + f'<row r="5">{cell}</row><row r="3">{cell}</row>' + SHEET_TAIL),
        ("Last cells", "worksheet", SHEET_HEAD + '<row r="1048576"><c r="XFD1048576"><v>1</v></c></row>' + SHEET_TAIL),
    ])
    duplicate_part("duplicate_part_name.xlsx", "xl/worksheets/sheet1.xml")
    duplicate_part("duplicate_part_name_case.xlsx", "XL/Worksheets/Sheet1.xml")
    sheets_workbook("no_worksheets.xlsx", [])
    chart = ('<?xml version="1.0"?><chartsheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
             'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheetPr/><sheetViews><sheetView workbookViewId="0"/></sheetViews></chartsheet>')
    sheets_workbook("chartsheet_first.xlsx", [
        ("Chart1", "chartsheet", chart),
        ("Data", "worksheet", SHEET_HEAD + "".join(
            f'<row r="{number}">' + "".join(f'<c t="inlineStr"><is><t>{text}</t></is></c>' for text in texts) + "</row>"
            for number, texts in ((1, ("Code", "Name", "Region")), (2, ("08", "Natick", "East")))) + SHEET_TAIL),
    ])
    sheets_workbook("chartsheet_only.xlsx", [("Chart1", "chartsheet", chart)])


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
    other_tools_fixtures()


if __name__ == "__main__":
    main()
