import { Module } from '@nestjs/common';
import { NotificationsModule } from '../notifications/notifications.module';
import { CatalogService } from './catalog.service';
import { LeadsService } from './leads.service';
import { PromotionsService } from './promotions.service';
import { ShoppingExtensionsController } from './shopping-extensions.controller';
import { ShoppingController } from './shopping.controller';
import { TenantsService } from './tenants.service';

@Module({
  imports: [NotificationsModule],
  controllers: [ShoppingExtensionsController, ShoppingController],
  providers: [CatalogService, LeadsService, PromotionsService, TenantsService],
})
export class ShoppingModule {}
