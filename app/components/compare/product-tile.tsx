import { Link } from "react-router";
import { formatPounds } from "../../lib/money.ts";
import { ProductActions } from "../catalog/product-actions.tsx";
import { Picture, type PictureImage } from "../catalog/picture.tsx";

export interface TileProduct {
  id: number;
  slug: string;
  name: string;
  price: number;
  price_ex_vat: number;
  in_stock: boolean;
  manufacturer: { name: string } | null;
  image: PictureImage | null;
}

/** A small product tile for the content pages (showcase, kitchens & bathrooms), with compare and the heart. */
export function ProductTile({ product }: { product: TileProduct }) {
  return (
    <article className="flex h-full flex-col rounded-lg border border-stone-200 bg-white p-3 shadow-sm sm:p-4">
      {product.image ? (
        <Picture image={product.image} alt={product.image.alt} sizes="240px" width={240} height={240} className="aspect-square w-full rounded bg-stone-100 object-contain" />
      ) : null}
      <p className="mt-3 text-xs font-medium uppercase tracking-wide text-stone-600">{product.manufacturer?.name ?? "\u00a0"}</p>
      <h3 className="mt-1 font-semibold leading-snug">
        <Link to={`/product/${product.slug}`} className="hover:underline">
          {product.name}
        </Link>
      </h3>
      <p className="mt-2">
        <span className="text-lg font-bold">{formatPounds(product.price)}</span>{" "}
        <span className="text-sm text-stone-600">{formatPounds(product.price_ex_vat)} ex VAT</span>
      </p>
      <p className={`text-sm ${product.in_stock ? "text-green-800" : "text-stone-600"}`}>{product.in_stock ? "In stock" : "Out of stock"}</p>
      <div className="mt-auto pt-3">
        <ProductActions product={product} />
      </div>
    </article>
  );
}
