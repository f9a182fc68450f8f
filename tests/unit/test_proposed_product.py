"""The product proposed for a questionnaire when it is added (engine/index/proposed_product.py):
the one its file name names, on the real file names of ../shared/data/instructure (the products
being its folders, as ``kb add ROOT --scope-folders`` scopes them), else the only one its
general-information rows name, on workbooks written here with openpyxl and on the real HECVATs
under a file name that names nothing."""

from __future__ import annotations

import shutil
from pathlib import Path

import openpyxl
import pytest
from openpyxl.worksheet.datavalidation import DataValidation

from engine.core.scopes import FolderScopes
from engine.index.proposed_product import FILE_NAME, names_in, proposed_product
from engine.questionnaire import read_questionnaire


@pytest.fixture(scope="module")
def instructure(shared_data: Path) -> Path:
    root = shared_data / "instructure"
    if not root.is_dir():
        pytest.skip(f"{root} is absent")
    return root


def folder_products(root: Path) -> list[str]:
    """The products a workspace knows after indexing ``root`` with its folders as scopes."""
    scopes = FolderScopes()
    return sorted({p for f in root.glob("*/*") if f.is_file() for p in scopes.scope_of(f).products})


def test_each_real_questionnaire_is_proposed_for_the_product_its_file_name_names(instructure):
    products = folder_products(instructure)
    assert {"Canvas LMS", "Canvas Credentials", "Parchment", "LearnPlatform"} <= set(products)
    books = sorted(f for f in instructure.glob("*/*.xlsx") if FolderScopes().scope_of(f).products)
    assert len(books) >= 9  # the filled HECVATs and the K-12CVAT, one folder each
    for book in books:
        proposal = proposed_product(book.name, None, products)
        assert proposal is not None and proposal.product == book.parent.name, book.name
        assert proposal.reason == FILE_NAME
    # the same names as the extraction wrote them: underscores read as spaces
    assert proposed_product("Canvas_Credentials_HECVAT_Full.xlsx", None, products).product == "Canvas Credentials"
    assert proposed_product("Parchment_HECVAT_Full_-_All_Products.xlsx", None, products).product == "Parchment"


def test_the_longest_name_wins_and_two_names_apart_propose_nothing(instructure):
    products = folder_products(instructure) + ["Canvas"]  # a product whose name is inside others'
    assert proposed_product("Canvas LMS K-12CVAT-Lite.xlsx", None, products).product == "Canvas LMS"
    assert proposed_product("Canvas Catalog HECVAT Lite.xlsx", None, products).product == "Canvas Catalog"
    assert proposed_product("canvas hecvat 2025.xlsx", None, products).product == "Canvas"
    # a PDF of the real data naming one product (another folder's name is not in it)
    assert proposed_product("Canvas LMS & Studio SOC 3.pdf", None, products).product == "Canvas LMS"
    assert names_in("Canvas LMS and Mastery Connect HECVAT", products) == ["Canvas LMS", "Mastery Connect"]
    assert proposed_product("Canvas LMS and Mastery Connect HECVAT.xlsx", None, products) is None
    assert proposed_product("HECVAT Full 3.06.xlsx", None, products) is None  # names none
    assert proposed_product("Impactful HECVAT.xlsx", None, products) is None  # whole words only ("Impact")
    assert proposed_product("Canvas Credentials HECVAT Full.xlsx", None, []) is None  # no products known


def general_information(path: Path, name: str | None, description: str | None) -> Path:
    """A HECVAT-shaped sheet: GNRL-01…03 (vendor, product name and description, answered as a
    vendor fills them in), then two Yes/No questions with a dropdown."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Vendor Response"
    ws.append(["ID", "Question", "Vendor Answers", "Additional Information"])
    rows = [
        ("GNRL-01", "Vendor Name", "Instructure"),
        ("GNRL-02", "Product Name", name),
        ("GNRL-03", "Product Description", description),
        ("DATA-01", "Is customer data encrypted at rest?", None),
        ("DATA-02", "Are backups tested every quarter?", None),
    ]
    for row in rows:
        ws.append([*row, None])
    dv = DataValidation(type="list", formula1='"Yes,No"', allow_blank=True)
    ws.add_data_validation(dv)
    dv.add("C5:C6")
    wb.save(path)
    return path


PRODUCTS = ["Canvas", "Canvas LMS", "Canvas Studio", "Mastery Connect"]


@pytest.mark.parametrize(
    ("name", "description", "product", "row"),
    [
        ("Canvas Studio", "A video platform.", "Canvas Studio", "GNRL-02"),
        (None, "Mastery Connect is a digital assessment management system.", "Mastery Connect", "GNRL-03"),
        ("canvas lms", "Works with Mastery Connect.", "Canvas LMS", "GNRL-02"),  # the name row first
        ("Canvas LMS, Canvas Studio", "Two products.", None, None),  # two named apart
        ("Our LMS", "A learning platform.", None, None),  # none
    ],
)
def test_the_only_product_the_general_information_rows_name(tmp_path, name, description, product, row):
    book = read_questionnaire(general_information(tmp_path / "HECVAT Full.xlsx", name, description))
    proposal = proposed_product("HECVAT Full.xlsx", book, PRODUCTS)
    if product is None:
        assert proposal is None
    else:
        assert proposal.product == product
        assert proposal.reason == f"named in the workbook's general information ({row})"


def test_the_file_name_goes_before_the_rows(tmp_path):
    book = read_questionnaire(general_information(tmp_path / "Mastery Connect HECVAT.xlsx", "Canvas Studio", None))
    assert proposed_product("Mastery Connect HECVAT.xlsx", book, PRODUCTS).product == "Mastery Connect"


def test_real_hecvats_under_a_name_that_names_nothing_are_proposed_from_their_rows(instructure, tmp_path):
    products = folder_products(instructure)
    for folder, file in (
        ("Canvas Credentials", "Canvas Credentials HECVAT Full.xlsx"),
        ("Parchment", "Parchment HECVAT Full - All Products.xlsx"),  # "Parchment Award - Transcript Services, …"
    ):
        copy = shutil.copy(instructure / folder / file, tmp_path / "questionnaire from the university.xlsx")
        proposal = proposed_product(Path(copy).name, read_questionnaire(copy), products)
        assert proposal is not None and proposal.product == folder
        assert proposal.reason == "named in the workbook's general information (GNRL-02)"
