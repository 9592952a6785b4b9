import { ResourceList } from '../generate/ResourceList';
import { BookChamber } from './BookChamber';
import { CancelBooking } from './CancelBooking';
import { ordersConfig } from './config';

/**
 * `/other/order-manager`: the orders list with "Book a chamber" and, on each unused booking, "Cancel
 * booking", for the roles that may (docs/orders.md); `/other/order-list` is the same list without them.
 */
export const OrderManager = () => <ResourceList config={ordersConfig} rowActions={CancelBooking} toolbarActions={<BookChamber />} />;
